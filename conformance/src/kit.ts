/**
 * One run of the kit against one agent: the card (§6), activation on every transport (§7, §8), the
 * teach block (§8), absorption and pinning (§10) with show-back (§11), the Teach method (§12.2) and
 * authorization (§13.2), in that order, each check recorded as it ends. Only HTTP reaches the
 * agent; nothing here knows its domain but the adapter.
 */
import type { ConformanceAdapter } from './adapter.ts';
import { connect, fetchCard, type Credentials } from './agent.ts';
import { checkActivation } from './checks/activation.ts';
import { checkAbsorption, type Taught } from './checks/absorption.ts';
import { checkAuthorization } from './checks/authorization.ts';
import { checkCard } from './checks/card.ts';
import { checkSameProceeding, checkTeachBlock } from './checks/teach-block.ts';
import { checkTeachMethod } from './checks/teach-method.ts';
import { Recorder, words, type CheckResult } from './report.ts';
import { canTeach, openSession, teach, type Session } from './session.ts';

export interface KitOptions {
  /** The agent's base URL: its card is at /.well-known/agent-card.json under it. */
  readonly baseUrl: string;
  readonly credentials: Credentials;
  readonly adapter: ConformanceAdapter;
  /** The person lessons are taught as (§9 taughtBy). */
  readonly taughtBy: string;
  /** Told of each result as it is recorded. */
  readonly onResult?: (result: CheckResult) => void;
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
  const declaration = checkCard(card, r);
  if (declaration === null) return r.results;
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
  const s = openSession(agent, options.adapter, r, declaration, options.taughtBy);
  const prepared = await prepare(s);
  if (prepared !== null) {
    r.fail('adapter.prepare', '§10', prepared);
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
  return r.results;
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
