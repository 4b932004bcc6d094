/**
 * The admission gate bounds messages and bytes at once: beyond either an HTTP caller is refused
 * (null), a mailbox waits its turn in order, and a released permit lets the next one in.
 */
import { describe, expect, it } from 'vitest';
import { createAdmission } from './admission.ts';

const limits = { maxMessages: 2, maxBytes: 100, retryAfterSeconds: 3, queueMs: 0 };

describe('admission', () => {
  it('refuses a third message while two are read, and admits it once one is done', () => {
    const gate = createAdmission(limits);
    const a = gate.tryAdmit({ bytes: 10, message: true })!;
    expect(gate.tryAdmit({ bytes: 10, message: true })).not.toBeNull();
    expect(gate.tryAdmit({ bytes: 10, message: true })).toBeNull();
    a.release();
    a.release(); // idempotent: does not free a second slot
    expect(gate.tryAdmit({ bytes: 10, message: true })).not.toBeNull();
    expect(gate.tryAdmit({ bytes: 10, message: true })).toBeNull();
    expect(gate.load()).toMatchObject({ messages: 2, bytes: 20, refused: 2 });
  });

  it('refuses bytes past the budget, but always admits one request alone', () => {
    const gate = createAdmission(limits);
    const big = gate.tryAdmit({ bytes: 500, message: false });
    expect(big).not.toBeNull();
    expect(gate.tryAdmit({ bytes: 1, message: false })).toBeNull();
    big!.release();
    const a = gate.tryAdmit({ bytes: 60, message: false })!;
    expect(gate.tryAdmit({ bytes: 60, message: false })).toBeNull();
    expect(gate.tryAdmit({ bytes: 40, message: false })).not.toBeNull();
    a.release();
  });

  it('lets a waiting mailbox in first, in order, without refusing it', async () => {
    const gate = createAdmission({ ...limits, maxMessages: 1 });
    const first = gate.tryAdmit({ bytes: 1, message: true })!;
    const order: number[] = [];
    const w1 = gate.admit({ bytes: 1, message: true }).then((p) => (order.push(1), p));
    const w2 = gate.admit({ bytes: 1, message: true }).then((p) => (order.push(2), p));
    expect(gate.load().waiting).toBe(2);
    // an HTTP message does not overtake them; a call that only holds bytes does not wait behind them
    expect(gate.tryAdmit({ bytes: 1, message: true })).toBeNull();
    expect(gate.tryAdmit({ bytes: 1, message: false })).not.toBeNull();
    first.release();
    (await w1).release();
    (await w2).release();
    expect(order).toEqual([1, 2]);
    expect(gate.load()).toMatchObject({ messages: 0, waiting: 0 });
  });

  it('lets an HTTP message wait a bounded time: admitted when a slot frees in time, else refused', async () => {
    const gate = createAdmission({ ...limits, maxMessages: 1 });
    const first = gate.tryAdmit({ bytes: 1, message: true })!;
    const inTime = gate.admitWithin({ bytes: 1, message: true }, 1_000);
    setTimeout(() => first.release(), 20);
    const got = await inTime;
    expect(got).not.toBeNull();
    expect(await gate.admitWithin({ bytes: 1, message: true }, 30)).toBeNull();
    expect(gate.load()).toMatchObject({ waiting: 0, messages: 1 });
    got!.release();
  });

  it('tells a refused caller what happened, when to retry and which settings move the bounds', () => {
    const s = createAdmission(limits).busySentence();
    expect(s).toContain('send the same request again in 3 s');
    expect(s).toMatch(/ADMISSION_MAX_MESSAGES.*ADMISSION_MAX_BYTES/);
    expect(s).not.toMatch(/\(\d\)/);
  });
});
