/**
 * `node --import tsx bench/learning/earning.ts [--seeds=a,b,…]`: how the rule that lets a
 * reference family earn its scope (issue 26, src/domain/learnables/earned-scope.ts) was chosen.
 * For each seed's stream, every reference family is followed in arrival order; a family becomes
 * offerable as one customer's the first time the messages before it satisfy a candidate rule (all
 * of them that customer's: the operator answered each rightly), and it is counted as a bad offer
 * when the whole stream shows the series is shared by two customers or more. Each candidate rule
 * prints its bad and good offers summed over the seeds. No server: this is about the rule alone.
 */
import { EARNED_SCOPE, findReferences, referenceFamily } from '../../src/domain/learnables/index.ts';
import { subjectPrefixes } from '../../src/domain/mail/index.ts';
import { createWorld, DEFAULT_WORLD, type StreamMessage } from './world.ts';

interface Rule {
  readonly name: string;
  readonly minMessages: number;
  readonly minSendersOrThreads: number;
  readonly minDays: number;
  /** Count senders only, not threads. */
  readonly sendersOnly?: boolean;
}

const RULES: readonly Rule[] = [
  { name: 'before issue 26: 2 messages', minMessages: 2, minSendersOrThreads: 1, minDays: 1 },
  { name: '3 messages', minMessages: 3, minSendersOrThreads: 1, minDays: 1 },
  { name: '2 messages, 2 senders or threads, 2 days', minMessages: 2, minSendersOrThreads: 2, minDays: 2 },
  { name: '3 messages, 2 senders or threads', minMessages: 3, minSendersOrThreads: 2, minDays: 1 },
  // The rule in force (src/domain/learnables/earned-scope.ts), whatever its numbers are.
  {
    name: `${EARNED_SCOPE.minMessages} messages, ${EARNED_SCOPE.minSendersOrThreads} senders or threads, ${EARNED_SCOPE.minDays} days (in force)`,
    ...EARNED_SCOPE,
  },
  { name: '4 messages, 2 senders or threads, 2 days', minMessages: 4, minSendersOrThreads: 2, minDays: 2 },
  { name: '5 messages, 2 senders or threads, 3 days', minMessages: 5, minSendersOrThreads: 2, minDays: 3 },
  {
    name: '2 messages, 2 senders, 2 days',
    minMessages: 2,
    minSendersOrThreads: 2,
    minDays: 2,
    sendersOnly: true,
  },
  {
    name: '3 messages, 2 senders, 2 days',
    minMessages: 3,
    minSendersOrThreads: 2,
    minDays: 2,
    sendersOnly: true,
  },
  {
    name: '3 messages, 3 senders, 2 days',
    minMessages: 3,
    minSendersOrThreads: 3,
    minDays: 2,
    sendersOnly: true,
  },
];

interface Carrier {
  readonly customer: string;
  readonly sender: string;
  readonly thread: string;
  readonly day: string;
}

/**
 * The families a suggestion could draw from a message, as customers/evidence.ts does: its new text
 * (quoted mail left out), and its subject only when it is not a reply's inherited one.
 */
function families(m: StreamMessage): Set<string> {
  const out = new Set<string>();
  const newText = m.text.split(/\r\n\r\nOn [^\r\n]* wrote:/)[0]!;
  const subject = subjectPrefixes(m.subject).outermost === null ? m.subject : '';
  for (const ref of findReferences(`${subject}\n${newText}`)) {
    const f = referenceFamily(ref.text);
    if (f !== null) out.add(f.shown);
  }
  return out;
}

function dayOf(m: StreamMessage): string {
  const date = /^Date: (.+)$/m.exec(m.raw)?.[1] ?? '';
  return new Date(date).toISOString().slice(0, 10);
}

/** [bad offers, good offers] of one rule over one stream; `bad` collects the shared families offered. */
function offers(
  stream: readonly StreamMessage[],
  rule: Rule,
  badOnes?: Map<string, number>,
): [number, number] {
  const seen = new Map<string, Carrier[]>();
  const offered = new Map<string, string>(); // family -> the customer it was offered as
  for (const m of stream) {
    for (const family of families(m)) {
      const before = seen.get(family) ?? [];
      const owners = new Set(before.map((c) => c.customer));
      if (!offered.has(family) && owners.size === 1 && before.length >= rule.minMessages) {
        const senders = new Set(before.map((c) => c.sender)).size;
        const threads = new Set(before.map((c) => c.thread)).size;
        const days = new Set(before.map((c) => c.day)).size;
        const spread = rule.sendersOnly === true ? senders : Math.max(senders, threads);
        if (spread >= rule.minSendersOrThreads && days >= rule.minDays) offered.set(family, [...owners][0]!);
      }
      before.push({
        customer: m.truth.customer,
        sender: m.sender.address,
        thread: subjectPrefixes(m.subject).rest.toLowerCase(),
        day: dayOf(m),
      });
      seen.set(family, before);
    }
  }
  let bad = 0;
  let good = 0;
  for (const family of offered.keys()) {
    const customers = new Set(seen.get(family)!.map((c) => c.customer));
    if (customers.size > 1) {
      bad++;
      const prefix = family.split(/[-/]/)[0]!;
      badOnes?.set(prefix, (badOnes.get(prefix) ?? 0) + 1);
    } else good++;
  }
  return [bad, good];
}

const raw = process.argv.find((a) => a.startsWith('--seeds='))?.slice('--seeds='.length);
const seeds = raw === undefined ? [DEFAULT_WORLD.seed, 11, 22, 33, 44] : raw.split(',').map(Number);
const worlds = seeds.map((seed) => createWorld({ ...DEFAULT_WORLD, seed }).stream);
console.log(`\nFamilies offered as one customer's, summed over seeds ${seeds.join(', ')}:`);
console.log(`${'rule'.padEnd(58)}${'shared (bad)'.padStart(14)}${'own (good)'.padStart(12)}`);
for (const rule of RULES) {
  let bad = 0;
  let good = 0;
  for (const stream of worlds) {
    const [b, g] = offers(stream, rule);
    bad += b;
    good += g;
  }
  console.log(`${rule.name.padEnd(58)}${String(bad).padStart(14)}${String(good).padStart(12)}`);
}

for (const rule of [RULES[0]!, RULES.find((r) => r.name.endsWith('(in force)'))!]) {
  const badOnes = new Map<string, number>();
  for (const stream of worlds) offers(stream, rule, badOnes);
  console.log(
    `Shared series offered under "${rule.name}", by prefix: ${[...badOnes].map(([p, n]) => `${p} ${n}`).join(', ') || 'none'}`,
  );
}
