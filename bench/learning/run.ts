/**
 * `npm run bench:learning [outDir] [--messages=N] [--customers=N] [--weeks=N] [--seed=N] [--seeds=a,b,…]`: the
 * learning curve (issues 6 and 14). The seeded stream of world.ts is played four times against a
 * fresh real server each time, through its public interfaces only: taught (every answer becomes a
 * lesson at once, suggestions accepted), careful (issue 14's careful person: never accepts a
 * suggestion, types the narrowest mark she sees), discard (answers never taught) and redeploy weekly
 * (lessons posted at each week's end).
 *
 * Prints one table per week (with kind accuracy), judges issue 14's targets (taught at or below
 * careful from week 2; the last week at most 4 per hundred; zero misroutes; kind accuracy >= 98 %
 * with kind questions <= 2 per hundred in the last week; discard flat), misroutes by cause, the
 * accepted suggestions by type, groups the last week's questions by why they were asked, and
 * writes learning.json and learning.svg to the output folder (default bench-results/).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { learningChart } from './chart.ts';
import { reasonOf, simulate, type Mode, type QuestionRecord, type RunResult } from './simulate.ts';
import { createWorld, DEFAULT_WORLD, type WorldOptions } from './world.ts';

/**
 * Messages per week played by default: the world's own 400. The three runs go side by side in about
 * two and a half minutes on a 2-core machine; --messages=200 halves that (and, with fewer repeat
 * senders per week, raises questions per hundred).
 */
export const DEFAULT_MESSAGES_PER_WEEK = DEFAULT_WORLD.messagesPerWeek;

export const TARGETS = {
  lastWeekMax: 4,
  misroutes: 0,
  kindAccuracyMin: 98,
  kindQuestionsMax: 2,
  /** Discard is flat: its last week within this many questions/100 of its first. */
  discardFlatWithin: 10,
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

/**
 * `--modes=taught,careful`: the runs to play (taught is always played; default all four). Fewer runs
 * on a loaded machine; a target whose baseline was not run is reported as not judged.
 */
export function chosenModes(argv: readonly string[]): Mode[] {
  const all: Mode[] = ['taught', 'discard', 'redeploy-weekly', 'careful'];
  const raw = argv.find((a) => a.startsWith('--modes='))?.slice('--modes='.length);
  if (raw === undefined) return all;
  const wanted = raw.split(',').map((m) => m.trim());
  const unknown = wanted.filter((m) => !all.includes(m as Mode));
  if (unknown.length > 0)
    throw new Error(`--modes= takes ${all.join(', ')} separated by commas, not "${unknown.join(', ')}"`);
  return all.filter((m) => m === 'taught' || wanted.includes(m));
}

export function judge(
  taught: RunResult,
  discard: RunResult | undefined,
  careful: RunResult | undefined,
): Verdict[] {
  const last = taught.weeks[taught.weeks.length - 1]!;
  const misroutes = taught.weeks.reduce((n, w) => n + w.misroutes, 0);
  const behind = taught.weeks
    .filter((w) => w.week >= 2)
    .map((w) => w.questionsPer100 - (careful?.weeks.find((c) => c.week === w.week)?.questionsPer100 ?? 0));
  const worst = careful === undefined ? Number.NaN : Math.max(...behind, Number.NEGATIVE_INFINITY);
  const kindQuestions = round1((100 * last.kindQuestions) / Math.max(1, last.messages));
  const discardDrift =
    discard === undefined
      ? Number.NaN
      : Math.abs(
          discard.weeks[discard.weeks.length - 1]!.questionsPer100 - discard.weeks[0]!.questionsPer100,
        );
  return [
    {
      target: 'taught at or below careful in every week from week 2 (worst taught - careful)',
      met: worst <= 0,
      value: round1(worst),
    },
    {
      target: `questions/100 <= ${TARGETS.lastWeekMax} in week ${last.week}`,
      met: last.questionsPer100 <= TARGETS.lastWeekMax,
      value: last.questionsPer100,
    },
    { target: 'zero misroutes (taught)', met: misroutes === TARGETS.misroutes, value: misroutes },
    {
      target: `kind accuracy >= ${TARGETS.kindAccuracyMin} % by the rules in week ${last.week}`,
      met: last.kindAccuracy >= TARGETS.kindAccuracyMin,
      value: last.kindAccuracy,
    },
    {
      target: `kind questions/100 <= ${TARGETS.kindQuestionsMax} in week ${last.week}`,
      met: kindQuestions <= TARGETS.kindQuestionsMax,
      value: kindQuestions,
    },
    {
      target: `discard flat (last week within ${TARGETS.discardFlatWithin} of the first)`,
      met: discardDrift <= TARGETS.discardFlatWithin,
      value: round1(discardDrift),
    },
  ];
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

/** Misroutes by the phenomena their message carried. */
export function misroutesByCause(run: RunResult): [string, number][] {
  const by = new Map<string, number>();
  for (const m of run.misroutes) by.set(m.cause, (by.get(m.cause) ?? 0) + 1);
  return [...by].sort((a, b) => b[1] - a[1]);
}

/** Accepted suggestions by type over the whole run. */
export function acceptedByType(run: RunResult): [string, number][] {
  const by = new Map<string, number>();
  for (const w of run.weeks)
    for (const [k, n] of Object.entries(w.acceptedByType)) by.set(k, (by.get(k) ?? 0) + n);
  return [...by].sort((a, b) => b[1] - a[1]);
}

/**
 * Issue 28: what each type of lesson did to the question count: messages the rules later settled on
 * a customer lesson of that type (a message decided by two types counts for each), after week 1.
 */
export function settledByType(run: RunResult): [string, number][] {
  const by = new Map<string, number>();
  for (const w of run.weeks)
    if (w.week > 1) for (const [k, n] of Object.entries(w.settledByType)) by.set(k, (by.get(k) ?? 0) + n);
  return [...by].sort((a, b) => b[1] - a[1]);
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
    `\n${'week'.padEnd(5)}${pad('msgs', 6)}${pad('q/100', 7)}${pad('cust', 6)}${pad('kind', 6)}${pad('kind%', 7)}${pad('taught', 8)}` +
      `${pad('refused', 9)}${pad('misroutes', 11)}${others.map((r) => pad(`${r.mode} q/100 (mis)`, 26)).join('')}`,
  );
  taught.weeks.forEach((w, i) => {
    // Issue 49: a week that asks more than the one before is flagged, per collection.
    const before = taught.weeks[i - 1];
    const rose = (now: number, then: number | undefined) =>
      then !== undefined && before !== undefined && now / w.messages > then / before.messages ? '^' : ' ';
    console.log(
      `${String(w.week).padEnd(5)}${pad(w.messages, 6)}${pad(w.questionsPer100, 7)}` +
        `${pad(w.customerQuestions, 5)}${rose(w.customerQuestions, before?.customerQuestions)}` +
        `${pad(w.kindQuestions, 5)}${rose(w.kindQuestions, before?.kindQuestions)}${pad(w.kindAccuracy, 7)}` +
        `${pad(w.lessonsTaught, 8)}${pad(w.lessonsRefused, 9)}${pad(w.misroutes, 11)}` +
        others
          .map((r) => {
            const x = r.weeks.find((y) => y.week === w.week);
            return pad(x === undefined ? '-' : `${x.questionsPer100} (${x.misroutes})`, 26);
          })
          .join(''),
    );
  });
  console.log(`(^: more questions of that collection per hundred messages than the week before)`);
}

/** `--seeds=1,2,3`: the seeds to play in taught mode one after another (issue 26); empty: none. */
export function chosenSeeds(argv: readonly string[]): number[] {
  const raw = argv.find((a) => a.startsWith('--seeds='))?.slice('--seeds='.length);
  if (raw === undefined) return [];
  return raw.split(',').map((x) => {
    const n = Number(x.trim());
    if (!Number.isInteger(n) || n < 0)
      throw new Error(`--seeds= takes whole numbers separated by commas, not "${x}"`);
    return n;
  });
}

/** Issue 39's targets, judged per seed against the careful person on the same seed. */
export const ANSWER_TARGETS = { weekTwoMax: 12, kindQuestionsMax: 2, kindAccuracyMin: 98 } as const;

interface SeedRow {
  seed: number;
  weeks: number[];
  customerW2: number;
  customerW6: number;
  carefulW2: number;
  carefulW6: number;
  kindW6: number;
  kindAccuracyW6: number;
  misfiled: number;
  causes: [string, number][];
  misroutes: RunResult['misroutes'];
  refusals: number;
}

function customerPer100(run: RunResult | undefined, week: number): number {
  const w = run?.weeks.find((x) => x.week === week);
  return w === undefined ? Number.NaN : round1((100 * w.customerQuestions) / Math.max(1, w.messages));
}

/** Questions grouped by `key`, most first (over every run given). */
export function groupQuestions(
  runs: readonly RunResult[],
  pick: (q: QuestionRecord) => string | undefined,
): [string, number][] {
  const by = new Map<string, number>();
  for (const run of runs)
    for (const q of run.questions) {
      const k = pick(q);
      if (k !== undefined) by.set(k, (by.get(k) ?? 0) + 1);
    }
  return [...by].sort((a, b) => b[1] - a[1]);
}

/**
 * Issue 26's and 39's table: taught mode on several seeds, one seed after another, each beside the
 * careful person on the same seed (two servers at a time on a 2-core machine): customer questions
 * per hundred in weeks 2 and the last against hers, kind questions and accuracy, misfiles by cause;
 * then the last week's questions by cause and the repeat questions by cause, over every seed.
 */
async function playSeeds(seeds: readonly number[], base: WorldOptions, outDir: string): Promise<void> {
  console.log(
    `Taught mode on ${seeds.length} seeds beside the careful person: ${base.weeks} weeks x ${base.messagesPerWeek} messages, ${base.customers} customers.`,
  );
  const rows: SeedRow[] = [];
  const taughtRuns: RunResult[] = [];
  for (const seed of seeds) {
    const [run, careful] = await Promise.all(
      (['taught', 'careful'] as const).map((mode) =>
        simulate(createWorld({ ...base, seed }), mode, () => {}, seed),
      ),
    );
    taughtRuns.push(run!);
    const last = run!.weeks[run!.weeks.length - 1]!;
    const r: SeedRow = {
      seed,
      weeks: run!.weeks.map((w) => w.questionsPer100),
      customerW2: customerPer100(run, 2),
      customerW6: customerPer100(run, last.week),
      carefulW2: customerPer100(careful, 2),
      carefulW6: customerPer100(careful, last.week),
      kindW6: round1((100 * last.kindQuestions) / Math.max(1, last.messages)),
      kindAccuracyW6: last.kindAccuracy,
      misfiled: run!.misroutes.length,
      causes: misroutesByCause(run!),
      misroutes: run!.misroutes,
      refusals: run!.refusals.length,
    };
    rows.push(r);
    console.log(
      `  seed ${pad(seed, 10)}  all q/100 w2 ${pad(r.weeks[1] ?? '-', 5)} w${last.week} ${pad(last.questionsPer100, 5)}` +
        `  customer w2 ${pad(r.customerW2, 5)} w${last.week} ${pad(r.customerW6, 5)} (careful ${r.carefulW2} / ${r.carefulW6})` +
        `  kind w${last.week} ${pad(r.kindW6, 4)} (${r.kindAccuracyW6} % right)  misfiled ${pad(r.misfiled, 3)}` +
        `${r.causes.length === 0 ? '' : `  by cause: ${r.causes.map(([c, n]) => `${c} ${n}`).join(', ')}`}  (${run!.seconds} s)`,
    );
  }
  const verdict = (met: boolean, what: string, measured: string): void =>
    console.log(`  ${met ? 'met    ' : 'NOT MET'}  ${what} (measured ${measured})`);
  console.log('');
  verdict(
    rows.every((r) => r.customerW6 <= r.carefulW6),
    'last-week customer questions/100 at or below the careful person on every seed',
    rows.map((r) => `${r.customerW6} vs ${r.carefulW6}`).join(', '),
  );
  verdict(
    rows.every((r) => r.kindW6 <= ANSWER_TARGETS.kindQuestionsMax),
    `last-week kind questions/100 <= ${ANSWER_TARGETS.kindQuestionsMax}`,
    rows.map((r) => r.kindW6).join(', '),
  );
  verdict(
    rows.every((r) => r.kindAccuracyW6 >= ANSWER_TARGETS.kindAccuracyMin),
    `kind accuracy >= ${ANSWER_TARGETS.kindAccuracyMin} % where the rules decided, last week`,
    rows.map((r) => r.kindAccuracyW6).join(', '),
  );
  verdict(
    rows.every((r) => (r.weeks[1] ?? 0) <= ANSWER_TARGETS.weekTwoMax),
    `week 2 questions/100 <= ${ANSWER_TARGETS.weekTwoMax}`,
    rows.map((r) => r.weeks[1]).join(', '),
  );
  const misfiled = rows.reduce((n, r) => n + r.misfiled, 0);
  verdict(misfiled === 0, 'zero misfiles on every seed', String(misfiled));
  const lastWeek = base.weeks;
  const printGroups = (title: string, groups: [string, number][]): void => {
    console.log(`\n${title}`);
    for (const [k, n] of groups.slice(0, 14)) console.log(`  ${pad(n, 5)}  ${k}`);
  };
  printGroups(
    `Week ${lastWeek} questions by cause, over the ${seeds.length} seeds:`,
    groupQuestions(taughtRuns, (q) =>
      q.week !== lastWeek
        ? undefined
        : `${q.collection} / ${q.role} / ${reasonOf(q.reads)}${q.suggested ? '' : ' (no suggestion)'}`,
    ),
  );
  printGroups(
    `Repeat questions (customers: same sender and customer; kinds: same customer and kind), all weeks, by cause:`,
    groupQuestions(taughtRuns, (q) => (q.repeat === undefined ? undefined : `${q.collection}: ${q.repeat}`)),
  );
  printGroups(
    `Repeat questions in week ${lastWeek}, by cause:`,
    groupQuestions(taughtRuns, (q) =>
      q.repeat === undefined || q.week !== lastWeek ? undefined : `${q.collection}: ${q.repeat}`,
    ),
  );
  writeFileSync(join(outDir, 'learning-seeds.json'), `${JSON.stringify({ world: base, rows }, null, 2)}\n`);
}

async function main(argv: readonly string[]): Promise<void> {
  const positional = argv.filter((a) => !a.startsWith('--'));
  const outDir = resolve(positional[0] ?? 'bench-results');
  mkdirSync(outDir, { recursive: true });
  const seeds = chosenSeeds(argv);
  if (seeds.length > 0) {
    await playSeeds(
      seeds,
      {
        ...DEFAULT_WORLD,
        customers: option(argv, 'customers', DEFAULT_WORLD.customers),
        weeks: option(argv, 'weeks', DEFAULT_WORLD.weeks),
        messagesPerWeek: option(argv, 'messages', DEFAULT_MESSAGES_PER_WEEK),
      },
      outDir,
    );
    return;
  }
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
  const modes = chosenModes(argv);
  const runs: RunResult[] = await Promise.all(
    modes.map((mode) => simulate(createWorld(options), mode, (line) => console.log(line), options.seed)),
  );
  for (const run of runs) console.log(`  ${run.mode}: ${run.seconds} s`);
  printTable(runs);
  const taught = runs.find((r) => r.mode === 'taught')!;
  const discard = runs.find((r) => r.mode === 'discard');
  const careful = runs.find((r) => r.mode === 'careful');
  const verdicts = judge(taught, discard, careful);
  console.log('\nTargets:');
  for (const v of verdicts)
    console.log(`  ${v.met ? 'met    ' : 'NOT MET'}  ${v.target} (measured ${v.value})`);
  for (const run of runs) {
    const causes = misroutesByCause(run);
    if (causes.length > 0)
      console.log(`\nMisroutes by cause (${run.mode}): ${causes.map(([c, n]) => `${c} ${n}`).join(', ')}`);
  }
  const types = acceptedByType(taught);
  console.log(
    `\nSuggestions accepted (taught run), by type: ${types.map(([t, n]) => `${t} ${n}`).join(', ') || 'none'}; ` +
      `not confirmed (typed instead): ${taught.weeks.reduce((n, w) => n + w.suggestionsDeclined, 0)}`,
  );
  const settled = settledByType(taught);
  console.log(
    `Messages the rules settled in weeks 2 on (taught run), by the lesson that decided the customer: ${settled.map(([t, n]) => `${t} ${n}`).join(', ') || 'none'}`,
  );
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
    acceptedByType: types,
    settledByType: settled,
    misroutesByCause: Object.fromEntries(runs.map((r) => [r.mode, misroutesByCause(r)])),
    lastWeekQuestions: asking.map((g) => ({ group: g.group, count: g.count, example: g.example })),
  };
  writeFileSync(join(outDir, 'learning.json'), `${JSON.stringify(json, null, 2)}\n`);
  writeFileSync(join(outDir, 'learning.svg'), learningChart(runs));
  console.log(`\nWrote ${join(outDir, 'learning.json')} and ${join(outDir, 'learning.svg')}`);
}

await main(process.argv.slice(2));
