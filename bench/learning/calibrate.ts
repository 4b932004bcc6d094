/**
 * Issue 28: a quick estimate of what the careful person asks in a world, without a server: she is
 * asked about a message's customer the first time its narrowest mark (her typed value) is met, and
 * about its kind the first time its subject wording is met. The real run (`npm run bench:learning
 * -- --modes=careful`) is the measure; this only calibrates the world's options in seconds.
 *
 *   node --import tsx bench/learning/calibrate.ts [--seed=N]
 */
import { createWorld, DEFAULT_WORLD } from './world.ts';

const seedArg = process.argv.find((a) => a.startsWith('--seed='));
const world = createWorld({ ...DEFAULT_WORLD, ...(seedArg ? { seed: Number(seedArg.slice(7)) } : {}) });
const seenMarks = new Set<string>();
const seenKinds = new Set<string>();
const seenSenders = new Set<string>();
const weeks = new Map<
  number,
  { n: number; cust: number; kind: number; newSenders: Set<string>; senders: Set<string> }
>();
for (const m of world.stream) {
  const w = weeks.get(m.week) ?? { n: 0, cust: 0, kind: 0, newSenders: new Set(), senders: new Set() };
  weeks.set(m.week, w);
  w.n++;
  const mark = `${m.narrowest.where}|${m.narrowest.pattern}`;
  if (!seenMarks.has(mark)) w.cust++;
  seenMarks.add(mark);
  const cue = `${m.kindNarrowest.where}|${m.kindNarrowest.pattern.toLowerCase()}`;
  if (!seenKinds.has(cue)) w.kind++;
  seenKinds.add(cue);
  w.senders.add(m.sender.address);
  if (!seenSenders.has(m.sender.address)) w.newSenders.add(m.sender.address);
  seenSenders.add(m.sender.address);
}
console.log('week  msgs  cust/100  kind/100  any/100  senders  new%');
for (const [week, w] of weeks) {
  const p = (x: number) => ((100 * x) / w.n).toFixed(1).padStart(8);
  console.log(
    `${String(week).padEnd(6)}${String(w.n).padEnd(6)}${p(w.cust)}  ${p(w.kind)} ${p(w.cust + w.kind)}  ${String(w.senders.size).padStart(7)}  ${((100 * w.newSenders.size) / w.senders.size).toFixed(0).padStart(4)}`,
  );
}
