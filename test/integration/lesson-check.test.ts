// Invariant (issue 26, §13.1): every lesson is tried on the mail already read before it is absorbed; one that would file a message already settled or answered under another entry, or leave it undecided, is refused in the learnable's words (how many, whose, which) and no version is made, unless the lesson chooses "re-file"; the LessonResult says how many messages already read the value matches.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isDomainError, type DomainError } from '../../src/domain/errors.ts';
import { corpusKey, type ReadingSummary } from '../../src/domain/triage/index.ts';
import type { MailMessage } from '../../src/domain/mail/index.ts';
import { mail } from '../support/definitions.ts';
import { openCore, type Core } from './knowledge-harness.ts';

const DANA = 'dana@warehouse.example';
const SERIES = { pattern: 'INV-\\d{4}-\\d{6}', where: 'subject' };

async function refusal(p: Promise<unknown>): Promise<DomainError> {
  try {
    await p;
  } catch (e) {
    if (isDomainError(e)) return e;
    throw e;
  }
  throw new Error('expected the lesson to be refused');
}

describe('a lesson tried on the mail already read (issue 26, §13.1)', () => {
  let core: Core;
  beforeEach(async () => {
    core = await openCore({ checkLessons: true });
    for (const [entry, label, from] of [
      ['aljazira', 'Al Jazira Trading WLL', 'accounts@aljazira\\.example'],
      ['brandt', 'Brandt GmbH', 'versand@brandt\\.example'],
    ] as const) {
      await teach(entry, { label, pattern: from, where: 'from' });
    }
  });
  afterEach(async () => {
    await core.close();
  });

  const teach = (entry: string, value: Record<string, unknown>) =>
    core.authority.absorb(core.tenant, core.teacher, {
      collection: 'customers',
      entry,
      value,
      taughtBy: DANA,
    });

  /** Keep `m` as already read: `decided` is what it was settled as or a person answered (null: neither). */
  async function read(m: MailMessage, decided: string | null, seenAt: string): Promise<void> {
    const lastReading: ReadingSummary = {
      versionId: 'sha256:test',
      definitionVersion: 1,
      decided: new Map(decided === null ? [] : [['customers', decided]]),
    };
    await core.corpus.remember(core.tenant, {
      key: corpusKey(m),
      message: m,
      seenAt,
      taskId: null,
      lastReading,
    });
  }

  const invoice = (number: string, from: string) =>
    mail({ from: { address: from, name: '' }, subject: `Debit note ${number}` });

  /** Stream B: a shared e-invoicing series first seen twice for one customer, from a platform address. */
  async function twoInvoicesAnsweredAsAlJazira(): Promise<void> {
    await read(
      invoice('INV-2026-008920', 'noreply@einvoice.example'),
      'aljazira',
      '2026-09-07T08:00:00.000Z',
    );
    await read(
      invoice('INV-2026-009164', 'noreply@einvoice.example'),
      'aljazira',
      '2026-09-08T08:00:00.000Z',
    );
  }

  it('refuses a family that would re-file two invoices answered as another customer, naming them, and makes no version', async () => {
    await twoInvoicesAnsweredAsAlJazira();
    const before = await core.authority.active(core.tenant);

    const e = await refusal(teach('brandt', SERIES));
    expect(e.code).toBe('LESSON_REFUSED');
    expect(e.message).toContain('This would re-file 2 messages already read as Al Jazira Trading WLL');
    expect(e.message).toContain("'Debit note INV-2026-008920' on 7 Sep");
    expect(e.message).toContain("'Debit note INV-2026-009164' on 8 Sep");
    expect(e.message).toContain('choose "re-file" in "If this would change mail already read"');
    expect(e.details?.alreadyRead).toMatchObject({ matches: 2, refiled: 2 });

    const after = await core.authority.active(core.tenant);
    expect(after.definitionVersion).toBe(before.definitionVersion);
    expect(after.definition.versionId).toBe(before.definition.versionId);
  });

  it('protects a message a person answered even when no mark settles it now', async () => {
    await read(
      invoice('INV-2026-008920', 'noreply@einvoice.example'),
      'aljazira',
      '2026-09-07T08:00:00.000Z',
    );
    const e = await refusal(teach('brandt', SERIES));
    expect(e.message).toContain('1 message already read as Al Jazira Trading WLL');
  });

  it('protects a message settled by the marks in force even when its last reading kept nothing', async () => {
    await read(invoice('INV-2026-008920', 'accounts@aljazira.example'), null, '2026-09-07T08:00:00.000Z');
    // Brandt's subject mark would tie with Al Jazira's from mark: the message would be left undecided.
    const e = await refusal(teach('brandt', SERIES));
    expect(e.message).toContain('This would leave undecided 1 message already read as Al Jazira Trading WLL');
  });

  it('absorbs it when the person chooses to re-file, and says how many it matched and re-filed', async () => {
    await twoInvoicesAnsweredAsAlJazira();
    const r = await teach('brandt', { ...SERIES, alreadyRead: 're-file' });
    expect(r.learned).toBe(true);
    expect(r.alreadyRead).toEqual({ matches: 2, total: 2, refiled: 2 });
    // The history records the choice; the stored entry does not hold it.
    const history = await core.authority.history(core.tenant);
    expect(JSON.stringify(history[0])).toContain('re-file');
    const active = await core.authority.active(core.tenant);
    expect(JSON.stringify(active.definition.collections.get('customers')?.get('brandt'))).not.toContain(
      're-file',
    );
  });

  it('absorbs a lesson that matches only undecided mail or mail already its own, with the count', async () => {
    await read(invoice('INV-2026-008920', 'noreply@einvoice.example'), null, '2026-09-07T08:00:00.000Z');
    await read(invoice('INV-2026-009164', 'noreply@einvoice.example'), 'brandt', '2026-09-08T08:00:00.000Z');
    await read(mail({ subject: 'Booking 4411' }), 'aljazira', '2026-09-08T08:00:00.000Z');
    const r = await teach('brandt', SERIES);
    expect(r.learned).toBe(true);
    expect(r.alreadyRead).toEqual({ matches: 2, total: 3, refiled: 0 });
  });

  it('refuses a choice it does not know, in words', async () => {
    const e = await refusal(teach('brandt', { ...SERIES, alreadyRead: 'maybe' }));
    expect(e.message).toBe(
      '"maybe" is not a choice for mail already read; choose "refuse" (the default) or "re-file".',
    );
  });
});
