/**
 * The IMAP pollers' metrics: each configured mailbox's connection, reconnects, lag and backlog, read
 * from the pollers just before each exposition (`onScrape`). Registered on the server's registry by
 * createMetrics; the label is the configured mailbox name.
 */
import { Gauge, type Registry } from 'prom-client';
import type { ScrapeSetters, ServiceMetrics } from './service-metrics.ts';
import { seriesOn } from './series.ts';

export function imapMetrics(registry: Registry): Pick<ServiceMetrics, 'onScrape'> {
  const registers = [registry];
  const { gauge } = seriesOn(registry);
  const scrapeSources: ((set: ScrapeSetters) => void)[] = [];
  // Read the pollers just before an exposition (prom-client awaits every metric's collect, in the
  // order they were registered: this one first, so the mailbox gauges below show this scrape's state).
  new Gauge({
    name: 'imap_mailboxes',
    help: 'Configured IMAP mailboxes.',
    registers,
    collect() {
      let n = 0;
      const counting: ScrapeSetters = {
        mailbox: (name, s) => {
          n++;
          setters.mailbox(name, s);
        },
      };
      for (const source of scrapeSources) source(counting);
      this.set(n);
    },
  });
  const connected = gauge('imap_connected', '1 while the mailbox is connected and its folder open.', [
    'mailbox',
  ] as const);
  const reconnects = gauge('imap_reconnects', 'Reconnects since start (a counter kept by the poller).', [
    'mailbox',
  ] as const);
  const lag = gauge(
    'imap_lag_seconds',
    "Seconds from the last handled message's arrival on the IMAP server (INTERNALDATE) to its triage.",
    ['mailbox'] as const,
  );
  const backlog = gauge(
    'imap_backlog',
    'Messages waiting in the folder, found by the last sweep and not yet handled.',
    ['mailbox'] as const,
  );
  const setters: ScrapeSetters = {
    mailbox(name, s) {
      connected.set({ mailbox: name }, s.connected ? 1 : 0);
      reconnects.set({ mailbox: name }, s.reconnects);
      if (s.lagSeconds !== null) lag.set({ mailbox: name }, s.lagSeconds);
      backlog.set({ mailbox: name }, s.backlog);
    },
  };

  return {
    onScrape(source) {
      scrapeSources.push(source);
    },
  };
}
