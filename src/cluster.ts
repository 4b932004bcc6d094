/**
 * WORKERS ("use every core of one machine"): `npm start` with WORKERS=N > 1 runs a
 * primary process that serves nothing itself and N worker processes on one port (node:cluster: the
 * primary accepts and hands connections round-robin). The workers share DATA_DIR (SQLite in WAL
 * serves several processes; each worker has its own connection, and SQLite's data_version makes
 * another worker's write visible to the next read, store/read-validity.ts) or DATABASE_URL.
 *
 * Owns the processes' lifecycle: the primary prepares the store once (migrations, failing the tasks
 * a previous run left unfinished) before any worker starts; worker 1 starts alone first (it creates
 * the demo tenant and its first-start token on an empty directory), then the others; a worker that
 * exits after it listened is started again under the same number; SIGINT/SIGTERM to the primary
 * stops every worker cleanly, then the primary. Only worker 1 polls IMAP mailboxes (one owner per
 * mailbox) until a mailbox lease exists; webhooks and A2A are served by every worker.
 *
 * Does not own: what a worker serves (main.ts's compose), nor balancing beyond node:cluster's.
 */
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from './observability/logger.ts';
import type { WorkerIdentity } from './server.ts';

/** How long the primary waits for a stopping worker before it kills it, in ms. */
const STOP_GRACE_MS = 10_000;

export interface ClusterOptions {
  /** Worker processes, at least 2. */
  readonly workers: number;
  readonly log: Logger;
  /** Run once in the primary, before any worker starts: migrations, unfinished tasks. */
  prepare(): Promise<void>;
  /** A worker's whole life: compose and listen; returns the URL it listens on and how to stop. */
  serve(worker: WorkerIdentity): Promise<{ readonly url: string; close(): Promise<void> }>;
  /** Told in the primary once every worker listens, with the URL and the workers' pids. */
  onListening(url: string, pids: readonly number[]): void;
}

type ToWorker = { readonly kind: 'start'; readonly index: number } | { readonly kind: 'stop' };
type ToPrimary = { readonly kind: 'hello' } | { readonly kind: 'listening'; readonly url: string };

/** Runs this process's part: the primary's in the primary, a worker's in a worker. */
export async function runCluster(options: ClusterOptions): Promise<void> {
  if (cluster.isPrimary) await runPrimary(options);
  else await runWorker(options);
}

async function runPrimary(options: ClusterOptions): Promise<void> {
  await options.prepare();
  const running = new Map<number, Worker>();
  let stopping = false;

  const stopAll = async (code: number): Promise<never> => {
    stopping = true;
    await Promise.all([...running.values()].map(stopWorker));
    process.exit(code);
  };

  const fork = (index: number): Promise<string> =>
    new Promise<string>((resolve, reject) => {
      const worker = cluster.fork();
      running.set(index, worker);
      let listening = false;
      worker.on('message', (m: ToPrimary) => {
        // Asked once the worker listens for its number (a message sent earlier could be lost).
        if (m.kind === 'hello') worker.send({ kind: 'start', index } satisfies ToWorker);
        if (m.kind !== 'listening') return;
        listening = true;
        resolve(m.url);
      });
      worker.once('exit', (code, signal) => {
        if (running.get(index) === worker) running.delete(index);
        if (stopping) return;
        if (!listening) {
          reject(new Error(`worker ${index} exited (${signal ?? code}) before it listened`));
          return;
        }
        options.log.warn(
          { worker: index, pid: worker.process.pid, code, signal },
          `worker ${index} (pid ${worker.process.pid}) exited (${signal ?? code}); starting it again`,
        );
        fork(index).catch((e: unknown) => {
          options.log.fatal({ worker: index, err: String(e) }, `worker ${index} could not start again`);
          void stopAll(1);
        });
      });
    });

  const shutdown = (): void => void stopAll(0);
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  try {
    // Worker 1 first and alone: on an empty directory it creates the demo tenant and its token once.
    const url = await fork(1);
    const rest: Promise<string>[] = [];
    for (let i = 2; i <= options.workers; i++) rest.push(fork(i));
    await Promise.all(rest);
    options.onListening(
      url,
      [...running.values()].map((w) => w.process.pid ?? 0),
    );
  } catch (e) {
    stopping = true;
    await Promise.all([...running.values()].map(stopWorker));
    throw e;
  }
}

/** Asks a worker to stop, and kills it if it has not within STOP_GRACE_MS. */
function stopWorker(worker: Worker): Promise<void> {
  if (worker.isDead()) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => worker.process.kill('SIGKILL'), STOP_GRACE_MS);
    worker.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    if (worker.isConnected()) worker.send({ kind: 'stop' } satisfies ToWorker);
    else worker.process.kill('SIGTERM');
  });
}

async function runWorker(options: ClusterOptions): Promise<void> {
  const index = await new Promise<number>((resolve) => {
    const onMessage = (m: ToWorker): void => {
      if (m.kind !== 'start') return;
      process.off('message', onMessage);
      resolve(m.index);
    };
    process.on('message', onMessage);
    process.send?.({ kind: 'hello' } satisfies ToPrimary);
  });
  const served = await options.serve({ index, pollsMailboxes: index === 1 });
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    served.close().then(
      () => process.exit(0),
      (e: unknown) => {
        options.log.fatal({ worker: index, err: String(e) }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  process.on('message', (m: ToWorker) => {
    if (m.kind === 'stop') stop();
  });
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  process.once('disconnect', stop); // the primary is gone
  process.send?.({ kind: 'listening', url: served.url } satisfies ToPrimary);
}
