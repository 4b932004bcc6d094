// Invariant (issue 15, §10.2, §10.3): a replica on a shared PostgreSQL killed with SIGKILL while a lesson it was posted is in flight leaves the other replica a whole history: versions numbered 1…n with each activation naming the one before it, the head a complete version, every version loading with every lesson taught up to it, no lesson recorded twice, and the next lesson (the killed one posted again included) learned once.
/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON is read loosely; the assertions check its shape */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorityCall } from '../support/calls.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { startChild, type ChildHost } from './host.ts';

/** Replicas killed, one after another, each with a lesson in flight. */
const ROUNDS = 3;

let database: TestDatabase;
let survivor: ChildHost;
let token: string;
const started: ChildHost[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  // The first replica makes the demo tenant and its token; the survivor joins the same database.
  const first = await startChild({ DATABASE_URL: database.url, LOG_LEVEL: 'warn' });
  started.push(first);
  token = first.token!;
  survivor = await startChild({ DATABASE_URL: database.url, LOG_LEVEL: 'warn' });
  started.push(survivor);
}, 180_000);

afterAll(async () => {
  for (const h of started) await h.close();
  await database?.drop();
});

/** Lesson `name`: a sender mark for the customer northgate; `name` appears verbatim in every version holding it. */
function lesson(name: string): Record<string, unknown> {
  return {
    collection: 'customers',
    entry: 'northgate',
    value: { pattern: `${name}@kill\\.example`, where: 'from' },
    taughtBy: 'dana@warehouse.example',
    reason: `lesson ${name}`,
  };
}

async function post(url: string, name: string): Promise<{ status: number; body: any }> {
  return authorityCall(url, token, 'POST', '/lessons', lesson(name));
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

describe('SIGKILL mid-absorb on a shared PostgreSQL', () => {
  it('leaves no torn version and no lesson twice, round after round, and the next lesson works', async () => {
    /** Lessons a replica answered learned, by name, with the version their answer named. */
    const acknowledged = new Map<string, { definitionVersion: number; versionId: string }>();
    /** Lessons in flight when their replica was killed: recorded once or not at all. */
    const inFlight: string[] = [];
    let victim = started[0]!;
    for (let round = 0; round < ROUNDS; round++) {
      if (round > 0) {
        victim = await startChild({ DATABASE_URL: database.url, LOG_LEVEL: 'warn' });
        started.push(victim);
      }
      const latencies: number[] = [];
      const warmup = 2 + Math.floor(Math.random() * 4);
      /** The part of a lesson's usual time to wait before the kill; shrinks each time the answer wins. */
      let fraction = 0.2 + 0.8 * Math.random();
      for (let i = 0; ; i++) {
        const name = `r${round}-${i}`;
        if (i < warmup) {
          const t0 = performance.now();
          const r = await post(victim.url, name);
          latencies.push(performance.now() - t0);
          expect(r.status, JSON.stringify(r.body)).toBe(200);
          expect(r.body.learned).toBe(true);
          acknowledged.set(name, {
            definitionVersion: r.body.definitionVersion,
            versionId: r.body.versionId,
          });
          continue;
        }
        // Post, wait a random part of a lesson's usual time, and kill if it has not been answered;
        // an answer that came first is recorded and the loop tries again with the next lesson.
        const box: { answer: { status: number; body: any } | null } = { answer: null };
        const pending = post(victim.url, name).then(
          (r) => (box.answer = r),
          () => null, // the connection died with the process
        );
        await new Promise((r) => setTimeout(r, fraction * median(latencies)));
        fraction *= 0.8;
        if (box.answer === null) {
          await victim.crash();
          await pending;
        }
        const r = box.answer;
        if (r === null) {
          inFlight.push(name);
          break;
        }
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        acknowledged.set(name, { definitionVersion: r.body.definitionVersion, versionId: r.body.versionId });
      }
    }
    expect(inFlight).toHaveLength(ROUNDS);

    // What the survivor reads: the history, oldest first.
    const h = await authorityCall(survivor.url, token, 'GET', '/history?limit=1000');
    expect(h.status).toBe(200);
    const history = [...(h.body.history as any[])].sort((a, b) => a.definitionVersion - b.definitionVersion);
    // §10.3: the chain is intact, versions 1…n each naming the one before.
    history.forEach((a, i) => {
      expect(a.definitionVersion).toBe(i + 1);
      if (i > 0) expect(a.previousVersionId).toBe(history[i - 1].versionId);
    });
    const head = await authorityCall(survivor.url, token, 'GET', '/head');
    expect(head.body).toEqual({
      definitionVersion: history.length,
      versionId: history[history.length - 1].versionId,
    });

    // No lesson twice: each reason at most once; every acknowledged one once, at the version it was answered with.
    const byReason = new Map<string, any[]>();
    for (const a of history)
      if (a.reason !== null) byReason.set(a.reason, [...(byReason.get(a.reason) ?? []), a]);
    for (const [reason, as] of byReason) expect(as, reason).toHaveLength(1);
    for (const [name, ack] of acknowledged) {
      const [a] = byReason.get(`lesson ${name}`) ?? [];
      expect(a, name).toMatchObject(ack);
    }
    const killedRecorded = inFlight.filter((n) => byReason.has(`lesson ${n}`));

    // Every version loads whole: each holds every lesson of this test taught up to it, none taught after.
    const ours = history.filter((a) => typeof a.reason === 'string' && a.reason.startsWith('lesson r'));
    for (const a of history) {
      const v = await authorityCall(
        survivor.url,
        token,
        'GET',
        `/versions/${encodeURIComponent(a.versionId)}`,
      );
      expect(v.status, a.versionId).toBe(200);
      const text = JSON.stringify(v.body);
      for (const o of ours) {
        const name = (o.reason as string).slice('lesson '.length);
        expect(text.includes(`${name}@`), `${name} in version ${a.definitionVersion}`).toBe(
          o.definitionVersion <= a.definitionVersion,
        );
      }
    }
    const active = await authorityCall(survivor.url, token, 'GET', '/definition');
    expect(active.body.versionId).toBe(head.body.versionId);

    // The next lessons work: each killed one posted again is learned exactly when it was not recorded.
    let expected = history.length;
    for (const name of inFlight) {
      const again = await post(survivor.url, name);
      expect(again.status).toBe(200);
      const wasRecorded = killedRecorded.includes(name);
      expect(again.body.learned, name).toBe(!wasRecorded);
      if (!wasRecorded) expected++;
      expect(again.body.definitionVersion).toBe(expected);
    }
    const next = await post(survivor.url, 'after-the-kills');
    expect(next.body.learned).toBe(true);
    expect(next.body.definitionVersion).toBe(expected + 1);
    console.info(
      `kill mid-absorb: ${ROUNDS} replicas killed with a lesson in flight; ${killedRecorded.length} of those ` +
        `lessons had committed, ${ROUNDS - killedRecorded.length} had not; ${acknowledged.size} acknowledged lessons, ` +
        `${history.length} versions checked whole`,
    );
  }, 600_000);
});
