/**
 * One run of the kit against one agent: first the card (§6; a card without the extension stops
 * the run there), then whether the adapter fits the agent (else AdapterMisfit, and no check after
 * runs; an answer that fails only with the teach block shown is the agent's §8 failure, not a
 * misfit), then activation on every transport (§7, §8), the
 * teach block (§8), absorption and pinning (§10) with show-back (§11), the Teach method (§12.2) and
 * authorization (§13.2), in that order, and last whether every lesson learned in the run rose
 * (§10.4), each check recorded as it ends. Only HTTP reaches the
 * agent; nothing here knows its domain but the adapter.
 */
import type { ConformanceAdapter, Wire } from './adapter.ts';
import {
  connect,
  declarationOf,
  fetchCard,
  stateOf,
  teachBlocks,
  type Channel,
  type Credentials,
} from './agent.ts';
import { checkActivation } from './checks/activation.ts';
import { checkAbsorption, checkMonotonic, type Taught } from './checks/absorption.ts';
import { checkAuthorization } from './checks/authorization.ts';
import { checkCard } from './checks/card.ts';
import { answerOn, checkSameProceeding, checkTeachBlock } from './checks/teach-block.ts';
import { checkTeachMethod } from './checks/teach-method.ts';
import { Recorder, words, type CheckResult } from './report.ts';
import { canTeach, openSession, park, teach, type Session } from './session.ts';

export interface KitOptions {
  /** The agent's base URL: its card is at /.well-known/agent-card.json under it. */
  readonly baseUrl: string;
  readonly credentials: Credentials;
  readonly adapter: ConformanceAdapter;
  /**
   * Whether the adapter is the kit's default, not one the user chose: it is then used only for an
   * agent whose card it recognises (`recognises`).
   */
  readonly defaultAdapter?: boolean;
  /** The person lessons are taught as (§9 taughtBy). */
  readonly taughtBy: string;
  /** Told of each result as it is recorded. */
  readonly onResult?: (result: CheckResult) => void;
}

/**
 * The adapter does not fit the agent: the kit checks nothing rather than blame the agent for it.
 * The command line exits 2 with its words.
 */
export class AdapterMisfit extends Error {
  override readonly name = 'AdapterMisfit';
}

export async function runConformance(options: KitOptions): Promise<CheckResult[]> {
  const r = new Recorder(options.onResult);
  let card;
  try {
    card = await fetchCard(options.baseUrl);
  } catch (e) {
    r.fail('card.fetch', '§6', words(e));
    return r.results;
  }
  if (options.defaultAdapter === true && options.adapter.recognises?.(card) !== true)
    throw new AdapterMisfit(
      `the default adapter ("${options.adapter.name}") is written for another agent, and does not recognise the card of "${String(card?.name)}" (collections ${collectionsOf(card).join(', ') || 'none'}): give this agent's own adapter with --adapter FILE`,
    );
  let agent;
  try {
    agent = await connect(options.baseUrl, card, options.credentials, options.taughtBy);
  } catch (e) {
    r.fail('activation.transports', '§7', `no SDK client could be built from the card: ${words(e)}`);
    return r.results;
  }
  const first = agent.channels[0];
  if (first === undefined) {
    r.fail(
      'activation.transports',
      '§7',
      `the card lists no interface the kit can speak: ${agent.unspoken.join('; ') || 'none'}`,
    );
    return r.results;
  }
  // The card's own checks first: a card without the extension fails §6.1, not the adapter's fit.
  // They are told only once the adapter fits: a misfit checks nothing.
  const cardChecks = new Recorder();
  const declaration = checkCard(card, cardChecks);
  const tell = (): void => {
    for (const c of cardChecks.results) r.record(c.id, c.section, c.status, c.reason);
  };
  if (declaration === null) {
    tell();
    return r.results;
  }
  const s = openSession(agent, options.adapter, r, declaration, options.taughtBy);
  const notSame = await checkFit(s, first); // a misfit throws before any check is told
  tell();
  if (notSame !== null) {
    r.fail('teach.same-proceeding', '§8', notSame);
    return r.results;
  }
  await stage(r, 'activation', '§7', async () => {
    const parked = await checkActivation(s);
    const q = parked.get(first.name);
    if (q === undefined) r.skip('teach.block', '§8', `no question parked on ${first.name}`);
    else checkTeachBlock(s, q);
  });
  await stage(r, 'teach.same-proceeding', '§8', () => checkSameProceeding(s, first));
  let taught: Taught | null = null;
  await stage(r, 'absorb', '§10', async () => {
    taught = await checkAbsorption(s, first);
  });
  await stage(r, 'teach-method', '§12.2', () => checkTeachMethod(s, taught?.draft ?? null));
  await stage(r, 'auth', '§13.2', () => checkAuthorization(s, first, taught));
  checkMonotonic(s);
  return r.results;
}

function collectionsOf(card: Wire): string[] {
  const learnables: Wire[] = declarationOf(card)?.params?.learnables ?? [];
  return Array.isArray(learnables) ? learnables.map((l) => JSON.stringify(l?.collection)) : [];
}

/**
 * Before any MUST check, the adapter must fit the agent: its `prepare` lessons are taught, its
 * undecidable input, sent activated, leaves a task in input-required with a teach block, and its
 * answer finishes that task. Otherwise every check after would blame the agent for the adapter:
 * AdapterMisfit, naming what did not fit. An answer that finishes its task only when the question
 * was asked without the teach block is the agent's §8 failure, not a misfit: its words, else null.
 */
async function checkFit(s: Session, c: Channel): Promise<string | null> {
  const prepared = await prepare(s);
  if (prepared !== null) throw new AdapterMisfit(prepared);
  const id = s.freshId('fit');
  let task: Wire;
  try {
    task = (await c.send(s.adapter.undecidable(id), { activate: true })).value;
  } catch (e) {
    throw new AdapterMisfit(
      `the agent refused the adapter's undecidable input ${id} on ${c.name}: ${words(e)} (is the token one of this agent's? if it is, the adapter's input does not fit this agent)`,
    );
  }
  if (stateOf(task) !== 'TASK_STATE_INPUT_REQUIRED')
    throw new AdapterMisfit(
      `the adapter's undecidable input ${id} did not leave a task in input-required on ${c.name}: it came back ${stateOf(task) ?? JSON.stringify(task).slice(0, 200)}; give an input this agent asks about`,
    );
  const block = teachBlocks(task.status?.message)[0]?.block;
  if (block === undefined)
    throw new AdapterMisfit(
      `the adapter's undecidable input ${id} was asked about without a teach block (§8), so it is not an input a learnable covers; give one that is`,
    );
  let done: Wire;
  try {
    done = (await c.send(answerOn(s, { id, task, teach: block }), { activate: true })).value;
  } catch (e) {
    throw new AdapterMisfit(`the adapter's answer to ${id} was refused on ${c.name}: ${words(e)}`);
  }
  if (stateOf(done) === 'TASK_STATE_COMPLETED') return null;
  const ended = stateOf(done) ?? JSON.stringify(done).slice(0, 200);
  if (await finishesWithoutBlock(s, c))
    return `the adapter's answer to ${id}, asked with a teach block, ended ${ended}; the same answer to the same input asked without the block (not activated) completed: the task must proceed identically whether or not the block was shown`;
  throw new AdapterMisfit(`the adapter's answer to ${id} did not finish its task: it ended ${ended}`);
}

/** Whether the adapter's answer finishes a task when the question was asked without a teach block. */
async function finishesWithoutBlock(s: Session, c: Channel): Promise<boolean> {
  try {
    const q = await park(s, c, 'fit-without', false);
    return stateOf((await c.send(answerOn(s, q), { activate: false })).value) === 'TASK_STATE_COMPLETED';
  } catch {
    return false;
  }
}

/** Teaches the adapter's `prepare` lessons; what went wrong, or null. */
async function prepare(s: Session): Promise<string | null> {
  const lessons = s.adapter.prepare?.() ?? [];
  if (lessons.length > 0 && !canTeach(s))
    return 'the adapter prepares lessons, but there is no way to teach them';
  for (const lesson of lessons) {
    const outcome = await teach(s, lesson).catch((e: unknown) => ({
      ok: false as const,
      status: 0,
      reason: words(e),
    }));
    if (!outcome.ok)
      return `the adapter's prepared lesson for ${lesson.collection}/${lesson.entry} was refused: ${outcome.reason}`;
  }
  return null;
}

/** A stage that throws past its own checks (the agent went away, the adapter's input never parks) fails in words, and the run goes on. */
async function stage(r: Recorder, id: string, section: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (e) {
    r.fail(id, section, words(e));
  }
}
