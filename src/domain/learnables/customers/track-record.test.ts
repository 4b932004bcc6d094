// Invariant (issues 38, 49, §13.1): a sender mark is judged against the record of what it matches (a domain mark against its domain's mail, an address mark against its address's), only by mail first seen after it was taught; a kind's cue likewise; and a customer's name inside a longer customer's name the same text gives is the longer one's.
import { describe, expect, it } from 'vitest';
import { buildDefinition, mail } from '../../../../test/support/definitions.ts';
import { createLearnables } from '../index.ts';
import type { Carried, ReadInput, SenderRecord } from '../learnable.ts';
import type { Candidate, CollectionReading, MarkEvidence } from '../read-marked.ts';
import { recordObjection } from './track-record.ts';
import { otherCustomersNamed } from './objections.ts';
import { cueObjection } from '../kinds/cue-record.ts';

const learnables = createLearnables();
const customers = learnables.find((l) => l.collection === 'customers')!;
const kinds = learnables.find((l) => l.collection === 'kinds')!;
const TAUGHT = '2026-09-10T00:00:00.000Z';
const BEFORE = '2026-09-05T00:00:00.000Z';
const AFTER = '2026-09-15T00:00:00.000Z';

const evidence = (over: Partial<MarkEvidence>): MarkEvidence => ({
  mark: 'x',
  where: 'from',
  part: 'from',
  text: 'x',
  taughtBy: 'dana@warehouse.example',
  taughtAt: TAUGHT,
  activation: 2,
  ...over,
});
const candidate = (name: string, e: MarkEvidence): Candidate => ({
  name,
  label: name,
  score: 1,
  matched: [e.mark],
  evidence: [e],
});
const carried = (entries: Record<string, [number, string]>): Map<string, Map<string, Carried>> =>
  new Map([
    [
      'customers',
      new Map(Object.entries(entries).map(([k, [messages, lastAt]]) => [k, { messages, lastAt }])),
    ],
  ]);
const input = (record: SenderRecord): ReadInput => ({
  entries: undefined,
  hits: [],
  message: mail({ from: { address: 'ops@acme.example', name: '' } }),
  settings: { identificationMargin: 0.5 },
  resolvePerson: (id) => id,
  earlier: new Map(),
  record,
});
const empty = () => new Map<string, Map<string, Carried>>();

describe('a sender mark is weighed against its own record (issue 49, item 6)', () => {
  const domainMark = candidate('acme', evidence({ mark: '@acme\\.example', text: '@acme.example' }));
  const addressMark = candidate('acme', evidence({ mark: 'ops@acme\\.example', text: 'ops@acme.example' }));

  it("judges a domain mark by the domain's mail, not the address's", () => {
    const record = {
      address: 'ops@acme.example',
      byAddress: empty(),
      byDomain: carried({ acme: [5, AFTER], globex: [2, AFTER] }),
      byKey: new Map(),
    };
    expect(recordObjection(domainMark, input(record), customers)).toContain(
      "matches only on the sender's domain (@acme.example)",
    );
    expect(recordObjection(addressMark, input(record), customers)).toBeNull();
  });

  it("judges an address mark by the address's mail", () => {
    const record = {
      address: 'ops@acme.example',
      byAddress: carried({ acme: [5, AFTER], globex: [1, AFTER] }),
      byDomain: carried({ acme: [5, AFTER] }),
      byKey: new Map(),
    };
    expect(recordObjection(addressMark, input(record), customers)).toContain(
      "matches only on the sender's address (ops@acme.example)",
    );
  });

  it('counts only mail first seen after the mark was taught', () => {
    const record = (lastAt: string) => ({
      address: 'ops@acme.example',
      byAddress: carried({ acme: [5, AFTER], globex: [1, lastAt] }),
      byDomain: empty(),
      byKey: new Map(),
    });
    expect(recordObjection(addressMark, input(record(BEFORE)), customers)).toBeNull();
    expect(recordObjection(addressMark, input(record(AFTER)), customers)).not.toBeNull();
  });
});

describe("a kind's cue is weighed against mail since it was taught (issue 49, item 6)", () => {
  it('leaves out what was last seen before the lesson', () => {
    const cue = evidence({ mark: '\\bPOD\\b', where: 'subject', part: 'subject', text: 'POD' });
    const pod = candidate('proof-of-delivery', cue);
    const report: CollectionReading = {
      collection: 'kinds',
      settled: true,
      winner: 'proof-of-delivery',
      reads: 'Reads as a proof of delivery',
      candidates: [pod],
    };
    const withAgainst = (lastAt: string): ReadInput => ({
      ...input({ address: 'a@b.example', byAddress: empty(), byDomain: empty(), byKey: new Map() }),
      record: {
        address: 'a@b.example',
        byAddress: empty(),
        byDomain: empty(),
        byKey: new Map([
          ['cue:subject:pod', new Map([['kinds', new Map([['invoice', { messages: 1, lastAt }]])]])],
        ]),
      },
    });
    expect(cueObjection(report, withAgainst(BEFORE), kinds)).toBeNull();
    expect(cueObjection(report, withAgainst(AFTER), kinds)).toContain("proof-of-delivery matches on 'POD'");
  });
});

describe("a name inside a longer name is the longer one's (objections.ts, issue 49 item 6)", () => {
  it('names the customer whose full name the text gives, not the one whose name is inside it', () => {
    const definition = buildDefinition([
      { collection: 'customers', entry: 'kessler', value: { label: 'Kessler Trading' } },
      { collection: 'customers', entry: 'kessler-fk', value: { label: 'Kessler Trading Feinkost GmbH' } },
      { collection: 'customers', entry: 'northgate', value: { label: 'Northgate Motors Ltd' } },
    ]);
    const named = otherCustomersNamed(
      {
        ...input({ address: 'a@b.example', byAddress: empty(), byDomain: empty(), byKey: new Map() }),
        entries: definition.collections.get('customers'),
        message: mail({ subject: 'Pallets', body: 'For Kessler Trading Feinkost GmbH, two pallets.' }),
      },
      customers,
      'northgate',
    );
    expect(named.map((n) => n.entry)).toEqual(['kessler-fk']);
  });
});
