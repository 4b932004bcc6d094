/**
 * What adapters record (the port of src/observability: no prom-client types cross it), with the
 * gauges read at scrape time. metrics.ts builds it; each area's metric file records its part.
 */

export type LessonOutcome = 'learned' | 'unchanged' | 'refused';
export type Activation = 'teach' | 'rollback' | 'revert' | 'erase' | 'import';

/** What adapters record (the port: no prom-client types cross it). */
export interface ServiceMetrics {
  /** A message read by triage (not show-back, not a dry run), and the questions it raised. */
  messageRead(m: {
    tenant: string;
    path: string;
    state: string;
    questions: readonly string[];
    seconds: number;
  }): void;
  lesson(tenant: string, outcome: LessonOutcome): void;
  activation(tenant: string, action: Activation): void;
  matcherCompiled(seconds: number, marks: number): void;
  /** Where the matcher cache's bytes, budget and evictions are read at scrape time. */
  matcherCacheFrom(read: () => MatcherCacheGauges): void;
  matched(seconds: number): void;
  /** Where PostgreSQL's round trips are read at scrape time; never called on SQLite. */
  databaseRoundTripsFrom(read: () => { readonly all: number; readonly transactionControl: number }): void;
  admissionRejected(route: string, status: number): void;
  httpRequest(route: string, status: number, seconds: number): void;
  /** A source of gauges read at scrape time (the IMAP pollers' state). */
  onScrape(read: (set: ScrapeSetters) => void): void;
}

export interface MatcherCacheGauges {
  readonly versions: number;
  readonly bytes: number;
  readonly budgetBytes: number | null;
  readonly evictions: number;
}

export interface ScrapeSetters {
  mailbox(
    name: string,
    status: { connected: boolean; reconnects: number; lagSeconds: number | null; backlog: number },
  ): void;
}
