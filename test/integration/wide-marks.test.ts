// Invariant (issue 26, §13.1): a wide mark (a reference family, a sender's domain) does not outvote narrow evidence: when the leader matched only wide marks and another customer matches a narrower one, or the new text names another customer in full, the reading asks, naming both, and says why; alone, a wide mark still settles.
import { describe, expect, it } from 'vitest';
import { mail, type TestLesson } from '../support/definitions.ts';
import { directory, readFor } from '../support/suggest-corpus.ts';
import type { CollectionReading } from '../../src/domain/learnables/index.ts';

const lessons: TestLesson[] = [
  ...directory,
  { collection: 'customers', entry: 'northgate', value: { pattern: 'NGM-\\d{4}-\\d{4}', where: 'subject' } },
  { collection: 'customers', entry: 'alhamra', value: { pattern: 'ops@alhamra\\.example', where: 'from' } },
];

function customerOf(m: ReturnType<typeof mail>): CollectionReading {
  return readFor(m, lessons).reading.readings.get('customers')!.report as CollectionReading;
}

describe('a wide mark does not outvote narrow evidence (issue 26)', () => {
  it('settles on a family alone', () => {
    const r = customerOf(mail({ subject: 'Pre-alert NGM-2026-0777' }));
    expect(r.settled).toBe(true);
    expect(r.winner).toBe('northgate');
  });

  it('asks when the sender’s address was taught as another customer, naming both', () => {
    const r = customerOf(
      mail({ from: { address: 'ops@alhamra.example', name: '' }, subject: 'Pre-alert NGM-2026-0777' }),
    );
    // Issue 14's strength rule already asks here (the subject outranks the sender); it names both.
    expect(r.settled).toBe(false);
    expect(r.reads).toContain('Al Hamra Trading');
    expect(r.reads).toContain('Northgate Motors Ltd');
  });

  it('asks when the new text names another customer in full', () => {
    const r = customerOf(
      mail({ subject: 'Pre-alert NGM-2026-0777', body: 'Shipment for Al Hamra Trading, 3 pallets.' }),
    );
    expect(r.settled).toBe(false);
    expect(r.reads).toContain(
      'Northgate Motors Ltd matches only on a reference family, but the body names Al Hamra Trading',
    );
  });

  it('asks when a domain and a family lead on points but another customer’s name is in the new text', () => {
    const r = customerOf(
      mail({
        from: { address: 'lena@northgatemotors.example', name: '' },
        subject: 'Booking NGM-2026-0412',
        body: 'As agreed with Al Hamra Trading.',
      }),
    );
    expect(r.settled).toBe(false);
    expect(r.reads).toContain(
      'Northgate Motors Ltd matches only on a reference family and a domain, but the body names Al Hamra Trading',
    );
  });

  it('still settles a narrow mark against a wide one (the narrow one leads)', () => {
    const r = customerOf(
      mail({ from: { address: 'ops@alhamra.example', name: '' }, subject: 'Booking for you' }),
    );
    expect(r.settled).toBe(true);
    expect(r.winner).toBe('alhamra');
  });

  it('asks when the leader wins on wide marks alone and another customer matches a narrower one, naming it', () => {
    // Three families give Northgate three points against one for Al Hamra's whole reference, in the
    // same part (so issue 14's strength rule has nothing to say): only the narrower-mark branch asks.
    const withNarrow: TestLesson[] = [
      ...lessons,
      { collection: 'customers', entry: 'northgate', value: { pattern: 'NGB/\\d{5}', where: 'body' } },
      { collection: 'customers', entry: 'northgate', value: { pattern: 'NGC-\\d{3}', where: 'body' } },
      { collection: 'customers', entry: 'alhamra', value: { pattern: 'AHT-0042', where: 'body' } },
    ];
    const m = mail({
      subject: 'Pre-alert NGM-2026-0777',
      body: 'Booking NGB/12345, NGC-123, container ref AHT-0042.',
    });
    const r = readFor(m, withNarrow).reading.readings.get('customers')!.report as CollectionReading;
    expect(r.settled).toBe(false);
    expect(r.reads).toContain(
      'Northgate Motors Ltd matches only on a reference family, but Al Hamra Trading matches',
    );
    expect(r.reads).toContain('a narrower mark');
  });
});
