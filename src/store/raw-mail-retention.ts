/**
 * Raw mail is not kept forever (§14, RAW_MAIL_RETENTION_DAYS, as Rails' Action Mailbox
 * incinerates inbound mail): once a message is older than the retention, the mail a task was
 * given loses its bytes and text (`incinerateTaskMail`) and its corpus row its text
 * (`CorpusStore.discardText`). What stays is the content hash, the reading, the kept outcome a
 * parked task is answered from, and the provenance (task, Message-ID, when it was read).
 *
 * Swept at start and then every `intervalMs`, tenant by tenant. Retention 0 drops mail once read
 * (at the next sweep, a few seconds later).
 * Deliberately not here: what show-back says about a discarded message (the triage service does).
 */
import type { Kysely } from 'kysely';
import type { CorpusStore } from '../domain/triage/index.ts';
import { incinerateTaskMail, knownTenants } from './sqlite-task-mail.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How often the sweep runs when retention is in days, in ms. */
export const RETENTION_SWEEP_MS = 60 * 60 * 1000;
/** How often it runs with retention 0 ("drop once read"), in ms. */
export const DROP_ONCE_READ_SWEEP_MS = 5_000;
/** With retention 0, how long a settled task waits before its mail goes, in ms. */
const SETTLE_MS = 2_000;

export interface RawMailRetentionDeps {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema is defined by the migrations
  readonly db: Kysely<any>;
  readonly corpus: Pick<CorpusStore, 'discardText'>;
  /** RAW_MAIL_RETENTION_DAYS. */
  readonly days: number;
  /** Milliseconds since the epoch. Default Date.now. */
  readonly nowMs?: () => number;
  /** Default: RETENTION_SWEEP_MS, or DROP_ONCE_READ_SWEEP_MS with retention 0. */
  readonly intervalMs?: number;
  /** Where a failed sweep is reported (it runs again at the next interval). */
  readonly log?: (message: string, cause: unknown) => void;
}

export interface SweepResult {
  readonly tasks: number;
  readonly corpusMessages: number;
}

export interface RawMailRetention {
  /** One sweep of every tenant now. */
  sweep(): Promise<SweepResult>;
  /** Sweeps now, then every interval, until stop(). */
  start(): Promise<SweepResult>;
  stop(): Promise<void>;
}

export function createRawMailRetention(deps: RawMailRetentionDeps): RawMailRetention {
  const nowMs = deps.nowMs ?? Date.now;
  const intervalMs = deps.intervalMs ?? (deps.days === 0 ? DROP_ONCE_READ_SWEEP_MS : RETENTION_SWEEP_MS);
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<SweepResult> | null = null;

  async function sweepOnce(): Promise<SweepResult> {
    const now = nowMs();
    const cutoffMs = now - deps.days * DAY_MS;
    const at = new Date(now).toISOString();
    const cutoff = new Date(cutoffMs).toISOString();
    const tenants = await knownTenants(deps.db);
    let tasks = 0;
    let corpusMessages = 0;
    for (const tenant of tenants) {
      // With retention 0 a task is swept once settled and a moment old (the agent's write-through
      // cache of recent tasks holds a task for at most a second).
      tasks += await incinerateTaskMail(deps.db, tenant, deps.days === 0 ? now - SETTLE_MS : cutoffMs, at);
      corpusMessages += await deps.corpus.discardText(tenant, deps.days === 0 ? at : cutoff, at);
    }
    return { tasks, corpusMessages };
  }

  const sweep = (): Promise<SweepResult> => {
    running ??= sweepOnce().finally(() => (running = null));
    return running;
  };

  return {
    sweep,
    async start() {
      const first = await sweep();
      timer = setInterval(() => {
        sweep().catch((e: unknown) => deps.log?.('raw-mail retention sweep failed; it runs again later', e));
      }, intervalMs);
      timer.unref();
      return first;
    },
    async stop() {
      if (timer !== null) clearInterval(timer);
      timer = null;
      await running?.catch(() => undefined);
    },
  };
}
