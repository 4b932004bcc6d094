// Invariant: triage pins a task to one version and finishes on it, show-back reads under the version active now, every message is kept, and a dry run counts matches, newly settled messages and conflicts without writing (§10.3, §11, §13.1).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isDomainError } from '../../src/domain/errors.ts';
import { displayProvenance } from '../../src/domain/authority/index.ts';
import { createLearnables, type CollectionReading } from '../../src/domain/learnables/index.ts';
import type { MailMessage } from '../../src/domain/mail/index.ts';
import { compileMatcher } from '../../src/domain/matching/index.ts';
import {
  corpusKey,
  definitionMarks,
  scratchDefinition,
  swapEntryMatcher,
  createMatcherCache,
  readMessage,
  createTriageService,
  MAX_TEACH_ENTRIES,
  type TriageService,
} from '../../src/domain/triage/index.ts';
import { SqliteCorpusStore } from '../../src/store/sqlite-corpus-store.ts';
import { createColleagues } from '../../src/store/people-store.ts';
import { mail } from '../support/definitions.ts';
import { customerOf } from '../support/readings.ts';
import { openCore, steppingClock, type Core } from './knowledge-harness.ts';

const learnables = createLearnables();
let core: Core;
let corpus: SqliteCorpusStore;
let service: TriageService;

const northgateMail = (over: Partial<MailMessage> = {}): MailMessage =>
  mail({
    from: { address: 'ops@northgatemotors.example', name: 'Northgate Ops' },
    subject: 'Pre-alert NGM-2026-0001',
    ...over,
  });

async function teach(entry: string, value: Record<string, unknown>, taughtBy = 'dana@warehouse.example') {
  return core.authority.absorb(core.tenant, core.teacher, {
    collection: 'customers',
    entry,
    value,
    taughtBy,
  });
}

beforeEach(async () => {
  core = await openCore();
  corpus = new SqliteCorpusStore(core.db);
  service = createTriageService({
    definitions: core.authority,
    corpus,
    learnables,
    settings: { identificationMargin: 0.5 },
    matcherCache: createMatcherCache({ maxVersions: 8 }),
    resolvePerson: (tenant, id) => displayProvenance(id, (person) => core.store.personHandle(tenant, person)),
    clock: steppingClock(),
  });
  await teach('northgate', {
    label: 'Northgate Motors Ltd',
    pattern: '@northgatemotors\\.example',
    where: 'from',
  });
  await teach('gulftrade', { label: 'Gulftrade', pattern: 'GTS-\\d{4}-\\d{5}', where: 'any' });
});
afterEach(async () => {
  await core.close();
});

describe("a colleague's forward (issue 39)", () => {
  const forward = (from: string): MailMessage =>
    mail({
      from: { address: from, name: '' },
      subject: 'FW: Pre-alert 4410',
      isForward: true,
      body: [
        'Can you file this one, please?',
        '',
        '---------- Forwarded message ---------',
        'From: Northgate Ops <ops@northgatemotors.example>',
        'Date: Mon, 7 Sep 2026 09:00:00 +0000',
        'Subject: Pre-alert 4410',
        'To: lena@warehouse.example',
        '',
        'Hello, the details for our shipment 4410.',
        'Kind regards, Omar',
      ].join('\n'),
    });

  const serviceWithPeople = (): TriageService =>
    createTriageService({
      definitions: core.authority,
      corpus,
      learnables,
      settings: { identificationMargin: 0.5 },
      matcherCache: createMatcherCache({ maxVersions: 8 }),
      colleagues: createColleagues(core.db),
    });

  it('reads a forward from a colleague (the domain of someone who taught it) as the message it forwards', async () => {
    const withPeople = serviceWithPeople();
    // dana@warehouse.example taught the marks (beforeEach): lena at her domain is a colleague.
    const out = await withPeople.triage(core.tenant, forward('lena@warehouse.example'));
    expect(customerOf(out.reading).reads).toBe('Reads as Northgate Motors Ltd, on @northgatemotors.example');
    // The corpus keeps it as read: show-back reads the same.
    const shown = await withPeople.recheck(core.tenant, { key: out.key });
    expect(customerOf(shown!).winner).toBe('northgate');
    // Anyone else's forward is read as sent: the forwarded sender stays set aside.
    const other = await withPeople.triage(core.tenant, {
      ...forward('ops@otherforwarder.example'),
      contentHash: 'other',
      messageId: 'other@x',
    });
    expect(customerOf(other.reading).settled).toBe(false);
  });

  it('makes nobody a colleague by a free-mail domain: only the person themself', async () => {
    await teach('gulftrade', { pattern: 'GTX-\\d{4}', where: 'any' }, 'sam.k@gmail.com');
    const withPeople = serviceWithPeople();
    const stranger = await withPeople.triage(core.tenant, forward('someone@gmail.com'));
    expect(customerOf(stranger.reading).settled).toBe(false);
    const sam = await withPeople.triage(core.tenant, { ...forward('sam.k@gmail.com'), contentHash: 'sam' });
    expect(customerOf(sam.reading).winner).toBe('northgate');
  });
});

/** Kinds taught now, and a triage service whose mail comes a day after the lessons. */
async function kindsTaught(lessons: readonly [string, Record<string, string>][]): Promise<TriageService> {
  for (const [entry, value] of lessons)
    await core.authority.absorb(core.tenant, core.teacher, {
      collection: 'kinds',
      entry,
      value,
      taughtBy: 'dana@warehouse.example',
    });
  return createTriageService({
    definitions: core.authority,
    corpus,
    learnables,
    settings: { identificationMargin: 0.5 },
    matcherCache: createMatcherCache({ maxVersions: 8 }),
    clock: steppingClock(Date.UTC(2026, 7, 18, 9)),
  });
}

const kindOf = (r: Awaited<ReturnType<TriageService['triage']>>): CollectionReading =>
  r.reading.readings.get('kinds')!.report as CollectionReading;

describe("a kind's cue keeps its track record (issue 39)", () => {
  it('stops settling alone once a person filed mail carrying it as another kind, and says so', async () => {
    const later = await kindsTaught([
      ['proof-of-delivery', { label: 'Proof of delivery', cue: 'POD', where: 'subject' }],
      ['invoice', { label: 'Invoice' }],
    ]);
    const first = northgateMail({ subject: 'POD 4410', messageId: 'pod-1@x', contentHash: 'pod-1' });
    expect(kindOf(await later.triage(core.tenant, first)).winner).toBe('proof-of-delivery');
    // Before any answer against it, the cue settles the next one too.
    const second = northgateMail({ subject: 'POD 4411', messageId: 'pod-2@x', contentHash: 'pod-2' });
    expect(kindOf(await later.triage(core.tenant, second)).winner).toBe('proof-of-delivery');
    // A person files the first as an invoice: the cue no longer settles alone.
    await later.recordAnswer(core.tenant, first, 'kinds', 'invoice');
    const third = northgateMail({ subject: 'POD 4412', messageId: 'pod-3@x', contentHash: 'pod-3' });
    const read = kindOf(await later.triage(core.tenant, third));
    expect(read.settled).toBe(false);
    expect(read.reads).toContain(
      "Proof of delivery matches on 'POD', but mail carrying those words since they were taught was read or answered as Invoice (1 message",
    );
    expect(read.reads).toContain('revert activation');

    // Issue 49: answers for it restore its record, and it settles alone again (one against among many for).
    for (let n = 4413; n < 4413 + 16; n++) {
      const m = northgateMail({ subject: `POD ${n}`, messageId: `pod-${n}@x`, contentHash: `pod-${n}` });
      await later.triage(core.tenant, m);
      await later.recordAnswer(core.tenant, m, 'kinds', 'proof-of-delivery');
    }
    const back = northgateMail({ subject: 'POD 4500', messageId: 'pod-back@x', contentHash: 'pod-back' });
    expect(kindOf(await later.triage(core.tenant, back)).winner).toBe('proof-of-delivery');
  });
});

describe('two kinds in one message (issue 49)', () => {
  it("lets the kind whose cue's record is clearly stronger decide, and asks while neither is", async () => {
    const later = await kindsTaught([
      ['pre-alert', { label: 'Pre-alert', cue: 'pre-alert', where: 'body' }],
      ['proof-of-delivery', { label: 'Proof of delivery', cue: 'POD', where: 'body' }],
    ]);
    let n = 0;
    const answered = async (body: string, kind: string) => {
      n++;
      const m = northgateMail({
        subject: `Shipment ${n}`,
        body,
        messageId: `k-${n}@x`,
        contentHash: `k-${n}`,
      });
      await later.triage(core.tenant, m);
      await later.recordAnswer(core.tenant, m, 'kinds', kind);
    };
    const both = () =>
      northgateMail({
        subject: 'Shipment 999',
        body: 'Please find the pre-alert below.\nPOD: BOM',
        messageId: `both-${n}@x`,
        contentHash: `both-${n}`,
      });
    // Neither has a record yet: the reading asks, naming both.
    const first = kindOf(await later.triage(core.tenant, both()));
    expect(first.settled).toBe(false);
    expect(first.reads).toContain('A pre-alert and a proof of delivery both match');
    // The pre-alert cue is right 12 times; 'POD' in the body was on 3 pre-alerts (a port of discharge).
    for (let k = 0; k < 12; k++) await answered('Please find the pre-alert below.', 'pre-alert');
    for (let k = 0; k < 3; k++) await answered('Shipment on its way.\nPOD: BOM', 'pre-alert');
    const read = kindOf(await later.triage(core.tenant, both()));
    expect(read.winner).toBe('pre-alert');
    expect(read.reads).toBe(
      "Reads as a pre-alert, on 'pre-alert' in the body (12 messages for it and 0 against); a proof of delivery on 'POD' (0 messages for it and 3 against) matched too, with a clearly weaker record.",
    );
  });
});

describe('triage', () => {
  it("suggests a kind's cue without the customer's name the subject carries (§8, issue 39)", async () => {
    await core.authority.absorb(core.tenant, core.teacher, {
      collection: 'kinds',
      entry: 'proof-of-delivery',
      value: { label: 'Proof of delivery' },
      taughtBy: 'dana@warehouse.example',
    });
    // Issue 49: a cue is offered once it recurs in mail answered as one kind.
    for (const n of [4401, 4402]) {
      const earlier = northgateMail({
        subject: `Northgate Motors POD ${n}`,
        messageId: `${n}@x`,
        contentHash: `${n}`,
      });
      await service.triage(core.tenant, earlier);
      await service.recordAnswer(core.tenant, earlier, 'kinds', 'proof-of-delivery');
    }
    const out = await service.triage(core.tenant, northgateMail({ subject: 'Northgate Motors POD 4410' }));
    const q = out.questions.find((x) => x.collection === 'kinds');
    expect(q?.teach.suggested).toEqual({ cue: 'POD', where: 'subject' });
    expect(q?.teach.suggestionLabel).toBe(
      'the code "POD" in the subject, as in 2 messages already read as Proof of delivery',
    );
  });

  it('pins to the active version, reads, and shows who taught the mark (§10.3, §13.4)', async () => {
    const active = await core.authority.active(core.tenant);
    const out = await service.triage(core.tenant, northgateMail());
    expect(out.pin).toEqual({
      definitionVersion: active.definitionVersion,
      versionId: active.definition.versionId,
    });
    expect(out.reading.versionId).toBe(active.definition.versionId);
    expect(customerOf(out.reading).reads).toBe('Reads as Northgate Motors Ltd, on @northgatemotors.example');
    // The harness's application wrote it for dana: show-back names both (§13.4).
    expect(customerOf(out.reading).candidates[0]!.evidence[0]!.taughtBy).toBe(
      'dana@warehouse.example, via app:console',
    );
    expect(out.questions.filter((q) => q.collection === 'customers')).toEqual([]);
  });

  it('asks about an unknown sender with a teach block suggesting its address (§8, Appendix B)', async () => {
    const m = mail({ from: { address: 'billing@origin.example', name: 'Billing' }, subject: 'Shipment' });
    const out = await service.triage(core.tenant, m);
    const q = out.questions.find((x) => x.collection === 'customers')!;
    expect(q.text).toBe("Nothing matched, so I can't tell whose shipment this is: who should it go to?");
    expect(q.teach.entries).toEqual(['gulftrade', 'northgate']);
    expect(q.teach.suggestionLabel).toBe(
      'the address this message came from (first message from this address)',
    );
    expect(q.teach.lessonFields).toEqual(
      learnables[0]!.descriptor({ identificationMargin: 0.5 }).lessonFields,
    );
    // The suggestion, taught as is, settles the message (the loop of Appendix B).
    await teach('northgate', q.teach.suggested!);
    const again = await service.recheck(core.tenant, { messageId: m.messageId! });
    expect(customerOf(again!).reads).toBe('Reads as Northgate Motors Ltd, on billing@origin.example');
  });

  it('keeps every message it reads in the corpus (§13.1)', async () => {
    const m = northgateMail();
    await service.triage(core.tenant, m, undefined, { taskId: 'task-1' });
    const kept = await corpus.get(core.tenant, corpusKey(m));
    expect(kept?.taskId).toBe('task-1');
    expect(kept?.lastReading?.decided.get('customers')).toBe('northgate');
    expect(await corpus.count(core.tenant)).toBe(1);
  });

  it('finishes a pinned task on its version after a newer one is activated (§10.3)', async () => {
    const m = mail({ from: { address: 'billing@origin.example', name: '' } });
    const first = await service.triage(core.tenant, m);
    expect(customerOf(first.reading).settled).toBe(false);
    const taught = await teach('northgate', { pattern: 'billing@origin\\.example', where: 'from' });
    expect(taught.learned).toBe(true);
    // The task resumes on its pin: still the old version, still unsettled.
    const resumed = await service.triage(core.tenant, m, first.pin);
    expect(resumed.pin).toEqual(first.pin);
    expect(resumed.reading.versionId).toBe(first.pin.versionId);
    expect(customerOf(resumed.reading).settled).toBe(false);
    // A new task pins the new version.
    const fresh = await service.triage(core.tenant, m);
    expect(fresh.pin.versionId).toBe(taught.versionId);
    expect(customerOf(fresh.reading).winner).toBe('northgate');
  });
});

describe('the answer a question accepts', () => {
  it('offers every entry of the pinned version as a valid answer, beyond the capped teach-block list', async () => {
    for (let i = 0; i < MAX_TEACH_ENTRIES + 5; i++) {
      await teach(`c${String(i).padStart(3, '0')}`, { label: `Customer ${i}` });
    }
    const m = mail({ from: { address: 'billing@origin.example', name: 'Billing' }, subject: 'Shipment' });
    const q = (await service.triage(core.tenant, m)).questions.find((x) => x.collection === 'customers')!;
    expect(q.teach.entries.length).toBeLessThanOrEqual(MAX_TEACH_ENTRIES);
    expect(q.choices.length).toBe(MAX_TEACH_ENTRIES + 5 + 2); // + northgate and gulftrade
    expect(q.choices).toContainEqual({ name: 'c204', label: 'Customer 204' });
  });
});

describe('retention (§13.1)', () => {
  it('purges messages older than the retention setting', async () => {
    let now = Date.UTC(2026, 8, 1);
    const aged = createTriageService({
      definitions: core.authority,
      corpus,
      learnables,
      settings: { identificationMargin: 0.5, corpusRetentionDays: 30 },
      matcherCache: createMatcherCache({ maxVersions: 2 }),
      clock: { now: () => new Date(now).toISOString() },
    });
    const old = northgateMail();
    await aged.triage(core.tenant, old);
    now += 10 * 24 * 3600 * 1000;
    await aged.triage(core.tenant, northgateMail());
    expect(await aged.purgeExpired(core.tenant)).toBe(0);
    now += 25 * 24 * 3600 * 1000;
    expect(await aged.purgeExpired(core.tenant)).toBe(1);
    expect(await corpus.get(core.tenant, corpusKey(old))).toBeNull();
    expect(await corpus.count(core.tenant)).toBe(1);
  });
});

describe('recheck (§11)', () => {
  it('reads a seen message under the version active now, by Message-ID, key or task', async () => {
    const m = mail({ from: { address: 'billing@origin.example', name: '' } });
    const out = await service.triage(core.tenant, m, undefined, { taskId: 't-9' });
    await teach('northgate', { pattern: 'billing@origin\\.example', where: 'from' });
    const active = await core.authority.active(core.tenant);
    for (const k of [{ messageId: m.messageId! }, { key: out.key }, { taskId: 't-9' }, { message: m }]) {
      const r = await service.recheck(core.tenant, k);
      expect(r!.versionId).toBe(active.definition.versionId);
      expect(customerOf(r!).settled).toBe(true);
    }
  });

  it('says so when the message was never seen, and never for another tenant (§13.2)', async () => {
    const m = northgateMail();
    await service.triage(core.tenant, m);
    expect(await service.recheck(core.tenant, { messageId: 'nope@x' })).toBeNull();
    const { tenantId } = await import('../../src/domain/tenant.ts');
    expect(await service.recheck(tenantId('other'), { messageId: m.messageId! })).toBeNull();
  });
});

describe('dry run (§13.1)', () => {
  async function seed(): Promise<MailMessage[]> {
    const ms = [
      mail({ from: { address: 'billing@origin.example', name: '' }, subject: 'Pre-alert PA-2026-0901' }),
      mail({ from: { address: 'billing@origin.example', name: '' }, subject: 'Invoice PA-2026-0902' }),
      northgateMail({ subject: 'Pre-alert NGM-2026-0007 origin' }),
      mail({ from: { address: 'someone@else.example', name: '' }, subject: 'Hello' }),
    ];
    for (const m of ms) await service.triage(core.tenant, m);
    return ms;
  }

  it('counts matches, examples and newly settled messages, and writes nothing', async () => {
    await seed();
    const before = await core.authority.history(core.tenant);
    const r = await service.dryRun(core.tenant, {
      collection: 'customers',
      entry: 'northgate',
      value: { pattern: 'billing@origin\\.example', where: 'from' },
    });
    expect(r).toMatchObject({
      total: 4,
      matches: 2,
      newlySettled: 2,
      conflicts: 0,
      changes: [],
      learned: true,
    });
    expect(r.examples.map((e) => e.subject)).toEqual(['Pre-alert PA-2026-0901', 'Invoice PA-2026-0902']);
    expect(r.describes).toBe("matches the pattern 'billing@origin\\.example' in the from");
    expect(await core.authority.history(core.tenant)).toEqual(before);
  });

  it('shows a conflict: a message settled for one customer that the lesson would unsettle or move', async () => {
    await seed();
    const r = await service.dryRun(core.tenant, {
      collection: 'customers',
      entry: 'gulftrade',
      value: { pattern: 'origin', where: 'subject' },
    });
    expect(r.matches).toBe(1);
    expect(r.conflicts).toBe(1);
    expect(r.changes).toEqual([
      { key: expect.any(String), subject: 'Pre-alert NGM-2026-0007 origin', from: 'northgate', to: null },
    ]);
  });

  it('evaluates a lesson that would create a new entry', async () => {
    await seed();
    const r = await service.dryRun(core.tenant, {
      collection: 'customers',
      entry: 'origin',
      value: { label: 'Origin Trading', pattern: 'billing@origin\\.example', where: 'from' },
    });
    expect(r).toMatchObject({ learned: true, matches: 2, newlySettled: 2, conflicts: 0 });
  });

  it('refuses with the learnable’s own reason (§10.1)', async () => {
    const err = await service
      .dryRun(core.tenant, {
        collection: 'customers',
        entry: 'northgate',
        value: { pattern: 'billing@origin\\.example(', where: 'from' },
      })
      .catch((e: unknown) => e);
    expect(isDomainError(err, 'LESSON_REFUSED')).toBe(true);
    expect((err as Error).message).toContain('missing )');
  });

  it('reports a lesson that adds nothing as unchanged (§10.2)', async () => {
    await seed();
    const r = await service.dryRun(core.tenant, {
      collection: 'customers',
      entry: 'northgate',
      value: { pattern: '@northgatemotors\\.example', where: 'from' },
    });
    expect(r).toMatchObject({ learned: false, matches: 0, newlySettled: 0 });
  });

  it('evaluates a mappings lesson through the same path, its value opaque (§9)', async () => {
    const csvMail = mail({
      attachments: [
        {
          filename: 'manifest.csv',
          contentType: 'text/csv',
          sizeBytes: 20,
          text: 'AWB,Pcs\n1,2',
          table: { headings: ['AWB', 'Pcs'], rows: [['1', '2']] },
        },
      ],
    });
    await service.triage(core.tenant, csvMail);
    const r = await service.dryRun(core.tenant, {
      collection: 'mappings',
      entry: 'waybill',
      value: { column: 'awb', newField: 'yes' },
    });
    expect(r).toMatchObject({ matches: 1, newlySettled: 1, total: 1 });
  });

  it('reads exactly as a matcher compiled for the whole scratch version would', async () => {
    const ms = await seed();
    const active = await core.authority.active(core.tenant);
    const learnable = learnables[0]!;
    const entry = 'gulftrade';
    const absorbed = learnable.absorb(
      entry,
      active.definition.collections.get('customers')!.get(entry),
      { pattern: 'origin|PA-2026', where: 'any' },
      { activation: 99, taughtBy: 'x', at: 'now' },
    );
    if (absorbed.outcome !== 'learned') throw new Error('not learned');
    const scratch = scratchDefinition(active.definition, 'customers', entry, absorbed.content, 99);
    const full = compileMatcher(definitionMarks(scratch, learnables));
    const swapped = swapEntryMatcher(
      compileMatcher(definitionMarks(active.definition, learnables)),
      learnable,
      entry,
      absorbed.content,
    );
    for (const m of ms) {
      const settings = { identificationMargin: 0.5 };
      const a = readMessage(scratch, 1, full, m, learnables, settings, (id) => id);
      const b = readMessage(scratch, 1, swapped, m, learnables, settings, (id) => id);
      expect(b).toEqual(a);
    }
  });
});
