// Invariant: the metrics' tenant label takes at most maxTenants values (later tenants count as
// "_other"), and questions per hundred messages is computed over a rolling window.
import { describe, expect, it } from 'vitest';
import { createMetrics, OTHER_TENANTS, QUESTION_RATE_WINDOW_MS } from './metrics.ts';

const read = (tenant: string, questions: string[] = []) => ({
  tenant,
  path: 'a2a',
  state: 'TASK_STATE_COMPLETED',
  questions,
  seconds: 0.001,
});

describe('service metrics', () => {
  it('bounds the tenant label: tenants past maxTenants are counted as _other', async () => {
    const m = createMetrics({ maxTenants: 2 });
    for (const t of ['acme', 'demo', 'third', 'fourth', 'acme']) m.messageRead(read(t));
    const text = await m.scrape();
    expect(text).toContain('triage_messages_read_total{tenant="acme",path="a2a"} 2');
    expect(text).toContain('triage_messages_read_total{tenant="demo",path="a2a"} 1');
    expect(text).toContain(`triage_messages_read_total{tenant="${OTHER_TENANTS}",path="a2a"} 2`);
    expect(text).not.toContain('third');
  });

  it('gives questions per hundred messages over the last window only', async () => {
    let now = 1_000_000_000;
    const m = createMetrics({ now: () => now });
    m.messageRead(read('demo', ['customers', 'kinds']));
    m.messageRead(read('demo'));
    expect(await m.scrape()).toContain('triage_questions_per_hundred_messages{tenant="demo"} 100');
    now += QUESTION_RATE_WINDOW_MS + 60_000;
    m.messageRead(read('demo'));
    m.messageRead(read('demo'));
    m.messageRead(read('demo', ['customers']));
    m.messageRead(read('demo'));
    expect(await m.scrape()).toContain('triage_questions_per_hundred_messages{tenant="demo"} 25');
  });

  it('reads each mailbox at scrape time: connected, reconnects, lag and backlog (issue 18)', async () => {
    const m = createMetrics({});
    m.onScrape((set) => {
      set.mailbox('ops', { connected: true, reconnects: 2, lagSeconds: 42.5, backlog: 3 });
    });
    const text = await m.scrape();
    expect(text).toContain('imap_connected{mailbox="ops"} 1');
    expect(text).toContain('imap_reconnects{mailbox="ops"} 2');
    expect(text).toContain('imap_lag_seconds{mailbox="ops"} 42.5');
    expect(text).toContain('imap_backlog{mailbox="ops"} 3');
  });
});
