/**
 * `node --import tsx bench/learning/kinds-run.ts [--messages=N] [--weeks=N] [--seed=N]`: the kinds
 * side of the learning curve alone (issue 14): the taught run only, with kind accuracy and kind
 * questions per week and every kind misread by cause. Quicker than `npm run bench:learning` (one
 * server instead of four) for working on the kinds learnable; the full bench remains the judge.
 *
 * Owns: that print. Does not own: the world or the run (world.ts, simulate.ts).
 */
import { simulate, type KindMisread } from './simulate.ts';
import { createWorld, DEFAULT_WORLD } from './world.ts';

function option(argv: readonly string[], name: string, fallback: number): number {
  const raw = argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`--${name}= must be a whole number of at least 1, not "${raw}"`);
  return n;
}

/** Kind misreads grouped by cause, most first. */
export function kindMisreadsByCause(misreads: readonly KindMisread[]): [string, number][] {
  const by = new Map<string, number>();
  for (const m of misreads) by.set(m.cause, (by.get(m.cause) ?? 0) + 1);
  return [...by].sort((a, b) => b[1] - a[1]);
}

const argv = process.argv.slice(2);
const options = {
  ...DEFAULT_WORLD,
  seed: option(argv, 'seed', DEFAULT_WORLD.seed),
  weeks: option(argv, 'weeks', DEFAULT_WORLD.weeks),
  messagesPerWeek: option(argv, 'messages', DEFAULT_WORLD.messagesPerWeek),
};
console.log(
  `Kinds, taught run: ${options.weeks} weeks x ${options.messagesPerWeek} messages (seed ${options.seed})`,
);
const run = await simulate(createWorld(options), 'taught', (line) => console.log(line), options.seed);
console.log('\nweek  msgs  kind q  kind q/100  by rules  misreads  kind%');
for (const w of run.weeks)
  console.log(
    `${String(w.week).padEnd(6)}${String(w.messages).padStart(4)}${String(w.kindQuestions).padStart(8)}` +
      `${((100 * w.kindQuestions) / Math.max(1, w.messages)).toFixed(1).padStart(12)}` +
      `${String(w.kindByRules).padStart(10)}${String(w.kindMisreads).padStart(10)}${String(w.kindAccuracy).padStart(7)}`,
  );
console.log(
  `\nKind misreads by cause: ${
    kindMisreadsByCause(run.kindMisreads)
      .map(([c, n]) => `${c} ${n}`)
      .join(', ') || 'none'
  }`,
);
for (const m of run.kindMisreads)
  console.log(
    `  week ${m.week} #${m.seq} "${m.subject}": truth ${m.truth}, read ${m.read} (${m.reads.slice(0, 200)})`,
  );
const kindQs = run.questions.filter((q) => q.collection === 'kinds' && q.week >= 2);
console.log(`\nKind questions from week 2: ${kindQs.length}`);
for (const q of kindQs.slice(0, 30))
  console.log(
    `  week ${q.week} #${q.seq}: ${q.reads.slice(0, 200)}${q.suggestion === undefined ? '' : `; suggested ${q.suggestion}`}`,
  );
// Issue 14: messages whose reference is only in a PDF or XLSX (attachments-world.ts).
const docs = run.attachmentReads;
const count = (f: (a: (typeof docs)[number]) => boolean): number => docs.filter(f).length;
console.log(
  `\nReferences only in a PDF or XLSX: ${docs.length} messages; settled by the rules ${count((a) => a.outcome === 'rules')} ` +
    `(${count((a) => a.onAttachments)} on a mark in the attachments), asked ${count((a) => a.outcome === 'asked')}, misrouted ${count((a) => a.outcome === 'misrouted')}; ` +
    `with a note (a document not read) ${count((a) => a.reads.includes('(notes:'))}`,
);
for (const a of docs.filter((x) => x.outcome !== 'rules' || x.reads.includes('(notes:')).slice(0, 8))
  console.log(`  week ${a.week} #${a.seq} ${a.outcome}: ${a.reads.slice(0, 220)}`);
