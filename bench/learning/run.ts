/**
 * `npm run bench:learning [outDir] [--messages=N] [--customers=N] [--weeks=N] [--seed=N]`: the
 * learning curve (issue 6). The seeded stream of world.ts is played three times against a fresh
 * real server each time, through its public interfaces only: taught (every answer becomes a lesson
 * at once), discard (answers never taught) and redeploy weekly (lessons posted at each week's end).
 *
 * Prints one table per week, judges the targets (questions/100 <= 5 by the last week and < 15 in
 * week two, zero misroutes, discard above 60), groups the last week's questions by why they were
 * asked, and writes learning.json and learning.svg to the output folder (default bench-results/).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { learningChart } from './chart.ts';
import { simulate, type Mode, type QuestionRecord, type RunResult } from './simulate.ts';
import { createWorld, DEFAULT_WORLD, type WorldOptions } from './world.ts';

/**
 * Messages per week played by default: the world's own 400. The three runs go side by side in about
 * two and a half minutes on a 2-core machine; --messages=200 halves that (and, with fewer repeat
 * senders per week, raises questions per hundred).
 */
export const DEFAULT_MESSAGES_PER_WEEK = DEFAULT_WORLD.messagesPerWeek;

export const TARGETS = {
  lastWeekMax: 5,
  weekTwoBelow: 15,
  misroutes: 0,
  discardAbove: 60,
} as const;

function option(argv: readonly string[], name: string, fallback: number): number {
  const raw = argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`--${name}= must be a whole number of at least 1, not "${raw}"`);
  return n;
}

export interface Verdict {
  readonly target: string;
  readonly met: boolean;
  readonly value: number;
}

export function judge(taught: RunResult, discard: RunResult): Verdict[] {
  const last = taught.weeks[taught.weeks.length - 1]!;
  const two = taught.weeks[1];
  const misroutes = taught.weeks.reduce((n, w) => n + w.misroutes, 0);
  const discardMin = Math.min(...discard.weeks.map((w) => w.questionsPer100));
  return [
    {
      target: `questions/100 <= ${TARGETS.lastWeekMax} in week ${last.week}`,
      met: last.questionsPer100 <= TARGETS.lastWeekMax,
      value: last.questionsPer100,
    },
    ...(two === undefined
      ? []
      : [
          {
            target: `questions/100 < ${TARGETS.weekTwoBelow} in week 2`,
            met: two.questionsPer100 < TARGETS.weekTwoBelow,
            value: two.questionsPer100,
          },
        ]),
    { target: 'zero misroutes (taught)', met: misroutes === TARGETS.misroutes, value: misroutes },
    {
      target: `discard stays above ${TARGETS.discardAbove} questions/100`,
      met: discardMin > TARGETS.discardAbove,
      value: discardMin,
    },
  ];
}

/** The last week's questions grouped by collection, sender role and why they were asked. */
export function whyStillAsking(run: RunResult): { group: string; count: number; example: QuestionRecord }[] {
  const lastWeek = Math.max(...run.weeks.map((w) => w.week));
  const groups = new Map<string, { count: number; example: QuestionRecord }>();
  for (const q of run.questions.filter((x) => x.week === lastWeek)) {
    const key = `${q.collection} / ${q.role} / ${q.cause}${q.suggested ? ' (suggestion offered)' : ' (no suggestion)'}`;
    const g = groups.get(key);
    if (g === undefined) groups.set(key, { count: 1, example: q });
    else g.count++;
  }
  return [...groups.entries()].map(([group, g]) => ({ group, ...g })).sort((a, b) => b.count - a.count);
}

function pad(s: string | number, n: number): string {
  return String(s).padStart(n);
}

function printTable(runs: readonly RunResult[]): void {
  const taught = runs.find((r) => r.mode === 'taught')!;
  const others = runs.filter((r) => r.mode !== 'taught');
  console.log(
    `\n${'week'.padEnd(5)}${pad('msgs', 6)}${pad('q/100', 7)}${pad('cust', 6)}${pad('kind', 6)}${pad('taught', 8)}` +
      `${pad('refused', 9)}${pad('misroutes', 11)}${others.map((r) => pad(`${r.mode} q/100`, 22)).join('')}`,
  );
  for (const w of taught.weeks) {
    console.log(
      `${String(w.week).padEnd(5)}${pad(w.messages, 6)}${pad(w.questionsPer100, 7)}${pad(w.customerQuestions, 6)}${pad(w.kindQuestions, 6)}` +
        `${pad(w.lessonsTaught, 8)}${pad(w.lessonsRefused, 9)}${pad(w.misroutes, 11)}` +
        others.map((r) => pad(r.weeks.find((x) => x.week === w.week)?.questionsPer100 ?? '-', 22)).join(''),
    );
  }
}

async function main(argv: readonly string[]): Promise<void> {
  const positional = argv.filter((a) => !a.startsWith('--'));
  const outDir = resolve(positional[0] ?? 'bench-results');
  mkdirSync(outDir, { recursive: true });
  const options: WorldOptions = {
    ...DEFAULT_WORLD,
    seed: option(argv, 'seed', DEFAULT_WORLD.seed),
    customers: option(argv, 'customers', DEFAULT_WORLD.customers),
    weeks: option(argv, 'weeks', DEFAULT_WORLD.weeks),
    messagesPerWeek: option(argv, 'messages', DEFAULT_MESSAGES_PER_WEEK),
  };
  console.log(
    `Learning curve: ${options.customers} customers, ${options.forwarders} forwarders, ${options.weeks} weeks x ` +
      `${options.messagesPerWeek} messages (seed ${options.seed}), against the real server over A2A and the authority API.`,
  );
  // The three runs go side by side, each against its own server process. A fresh world per run:
  // the generator mutates its customers' staff lists as weeks pass.
  const modes = ['taught', 'discard', 'redeploy-weekly'] as const satisfies readonly Mode[];
  const runs: RunResult[] = await Promise.all(
    modes.map((mode) => simulate(createWorld(options), mode, (line) => console.log(line))),
  );
  for (const run of runs) console.log(`  ${run.mode}: ${run.seconds} s`);
  printTable(runs);
  const taught = runs[0]!;
  const discard = runs[1]!;
  const verdicts = judge(taught, discard);
  console.log('\nTargets:');
  for (const v of verdicts)
    console.log(`  ${v.met ? 'met    ' : 'NOT MET'}  ${v.target} (measured ${v.value})`);
  const asking = whyStillAsking(taught);
  console.log(
    `\nWhy the last week still asks (taught run, ${asking.reduce((n, g) => n + g.count, 0)} questions):`,
  );
  for (const g of asking) {
    const offered = g.example.suggestion === undefined ? '' : `; suggested ${g.example.suggestion}`;
    console.log(
      `  ${pad(g.count, 4)}  ${g.group}\n        e.g. #${g.example.seq} from ${g.example.sender}: ${g.example.reads.slice(0, 160)}${offered}`,
    );
  }
  const refusedReasons = new Map<string, number>();
  for (const r of taught.refusals) {
    const key = `${r.collection}: ${r.reason.replace(/"[^"]*"/, '"…"').slice(0, 140)}`;
    refusedReasons.set(key, (refusedReasons.get(key) ?? 0) + 1);
  }
  if (refusedReasons.size > 0) {
    console.log('\nRefused lessons (taught run), by reason:');
    for (const [k, n] of [...refusedReasons].sort((a, b) => b[1] - a[1])) console.log(`  ${pad(n, 4)}  ${k}`);
  }
  const notTaken = runs.flatMap((r) => r.answersNotTaken.map((a) => ({ ...a, mode: r.mode })));
  if (notTaken.length > 0) {
    console.log(
      `\nAnswers the agent would not take (${notTaken.length} across runs; the task stays parked, the message counts as asked):`,
    );
    for (const a of notTaken.slice(0, 3))
      console.log(`  ${a.mode} week ${a.week} #${a.seq}: answered ${a.collection} "${a.entry}": ${a.said}`);
  }
  if (taught.misroutes.length > 0) {
    console.log('\nMisroutes (taught run):');
    for (const m of taught.misroutes.slice(0, 10))
      console.log(
        `  week ${m.week} #${m.seq} from ${m.sender}: truth ${m.truth}, read ${m.read} (${m.reads})`,
      );
  }

  const json = {
    world: options,
    targets: TARGETS,
    verdicts,
    runs: runs.map((r) => ({
      mode: r.mode,
      seconds: r.seconds,
      weeks: r.weeks,
      refusals: r.refusals,
      misroutes: r.misroutes,
      answersNotTaken: r.answersNotTaken,
    })),
    lastWeekQuestions: asking.map((g) => ({ group: g.group, count: g.count, example: g.example })),
  };
  writeFileSync(join(outDir, 'learning.json'), `${JSON.stringify(json, null, 2)}\n`);
  writeFileSync(join(outDir, 'learning.svg'), learningChart(runs));
  console.log(`\nWrote ${join(outDir, 'learning.json')} and ${join(outDir, 'learning.svg')}`);
}

await main(process.argv.slice(2));
