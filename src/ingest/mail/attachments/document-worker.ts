/**
 * Document workers: the threads a PDF or an XLSX is read in, so that its bounds hold however
 * hostile the file. A job that outlives its time bound has its thread ended (pdf.js and exceljs do
 * much of their work in one turn of the event loop, so a timer in the same thread would never
 * fire); a job whose heap outgrows `documentMemoryMb` ends its own thread (V8's resourceLimits).
 * Either way the caller gets an outcome, never an exception, and the next job a fresh thread.
 *
 * A job's time bound runs from when a ready thread takes it: starting a thread (loading pdf.js and
 * exceljs, 0.4-1 s, several seconds on a loaded machine) is the agent's cost, not the document's.
 * Waiting for a busy thread is bounded by `waitUntil` (the message's parse deadline); waiting for
 * the first one to start, by STARTUP_MS (a loaded machine took over 10 s to start one). At most
 * DOCUMENT_WORKERS threads read at once; an idle thread is ended after IDLE_MS and never keeps the
 * process alive.
 *
 * Owns: the threads and their lifecycle. Deliberately not: what a thread reads (read-bytes.ts).
 */
import { Worker } from 'node:worker_threads';
import type { DocumentRead } from './read-bytes.ts';
import type { DocumentAnswer, DocumentJob } from './worker-entry.ts';

/** Threads reading documents at once, per process (the reference machine has two cores). */
export const DOCUMENT_WORKERS = 2;
/** How long a job may wait for the first thread to start, in milliseconds, whatever the message's deadline. */
const STARTUP_MS = 60_000;
/** An idle thread is ended after this long, in milliseconds, so memory returns to the idle level. */
const IDLE_MS = 30_000;

export type WorkerOutcome =
  | { readonly kind: 'read'; readonly read: DocumentRead }
  | { readonly kind: 'timeout' }
  /** No thread took it before `waitUntil`. */
  | { readonly kind: 'no-time' }
  | { readonly kind: 'memory' }
  | { readonly kind: 'crashed'; readonly why: string };

interface Pending {
  readonly job: DocumentJob;
  readonly timeoutMs: number;
  readonly done: (outcome: WorkerOutcome) => void;
  /** While waiting: until the wait bound; once taken: until the job's time bound. */
  timer?: NodeJS.Timeout;
  slot?: Slot;
}

interface Slot {
  readonly worker: Worker;
  ready: boolean;
  busy: Pending | null;
  idle?: NodeJS.Timeout;
}

/** The worker thread, started from source (.ts, registering tsx in the thread) or from the build (.js). */
function spawnWorker(memoryMb: number): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: 16 };
  if (!import.meta.url.endsWith('.ts')) {
    return new Worker(new URL('./worker-entry.js', import.meta.url), { resourceLimits });
  }
  const entry = new URL('./worker-entry.ts', import.meta.url).href;
  const tsx = typeof import.meta.resolve === 'function' ? import.meta.resolve('tsx/esm/api') : 'tsx/esm/api';
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(boot, { eval: true, execArgv: [], resourceLimits });
}

class DocumentWorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;

  constructor(private readonly memoryMb: number) {}

  run(job: Omit<DocumentJob, 'id'>, timeoutMs: number, waitUntil: number): Promise<WorkerOutcome> {
    return new Promise((resolve) => {
      const pending: Pending = {
        job: { ...job, id: this.nextId++ },
        timeoutMs,
        done: (outcome) => {
          clearTimeout(pending.timer);
          resolve(outcome);
        },
      };
      // no thread ready yet: starting one is the agent's cost, so the wait may outlast the message's
      // deadline, up to STARTUP_MS (a thread that cannot start fails the job sooner)
      const cold = !this.slots.some((slot) => slot.ready);
      const waitMs = Math.max(1, waitUntil - Date.now(), cold ? STARTUP_MS : 0);
      pending.timer = setTimeout(() => this.timedOut(pending), waitMs);
      this.queue.push(pending);
      this.dispatch();
    });
  }

  private timedOut(pending: Pending): void {
    const queued = this.queue.indexOf(pending);
    if (queued >= 0) this.queue.splice(queued, 1);
    if (pending.slot !== undefined) this.retire(pending.slot);
    pending.done(pending.slot === undefined ? { kind: 'no-time' } : { kind: 'timeout' });
    this.dispatch();
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const slot = this.slots.find((s) => s.ready && s.busy === null);
      if (slot === undefined) break;
      const pending = this.queue.shift()!;
      clearTimeout(slot.idle);
      clearTimeout(pending.timer);
      pending.timer = setTimeout(() => this.timedOut(pending), pending.timeoutMs);
      slot.busy = pending;
      pending.slot = slot;
      slot.worker.ref();
      slot.worker.postMessage(pending.job);
    }
    // a thread for every job still waiting, up to the bound; each takes a job once ready
    const starting = this.slots.filter((s) => !s.ready).length;
    for (let n = starting; n < this.queue.length && this.slots.length < DOCUMENT_WORKERS; n++) this.start();
  }

  private start(): Slot {
    const worker = spawnWorker(this.memoryMb);
    const slot: Slot = { worker, ready: false, busy: null };
    worker.unref();
    worker.on('message', (answer: DocumentAnswer | 'ready') => {
      if (answer === 'ready') {
        slot.ready = true;
        slot.idle = setTimeout(() => this.retire(slot), IDLE_MS).unref();
        this.dispatch();
        return;
      }
      const pending = slot.busy;
      if (pending === null || pending.job.id !== answer.id) return;
      slot.busy = null;
      worker.unref();
      slot.idle = setTimeout(() => this.retire(slot), IDLE_MS).unref();
      pending.done({ kind: 'read', read: answer.read });
      this.dispatch();
    });
    const lost = (outcome: WorkerOutcome): void => {
      if (!this.slots.includes(slot)) return;
      // a thread that dies before it is ready fails the oldest waiting job, so it cannot die forever
      const pending = slot.ready ? slot.busy : (this.queue.shift() ?? null);
      this.retire(slot);
      pending?.done(outcome);
      this.dispatch();
    };
    worker.on('error', (error: Error & { code?: string }) =>
      lost(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? { kind: 'memory' }
          : { kind: 'crashed', why: error.message.slice(0, 120) },
      ),
    );
    worker.on('exit', () => lost({ kind: 'crashed', why: 'the reader stopped' }));
    this.slots.push(slot);
    return slot;
  }

  /** Ends a slot's thread and forgets it (its job, if any, is the caller's to answer). */
  private retire(slot: Slot): void {
    const at = this.slots.indexOf(slot);
    if (at < 0) return;
    this.slots.splice(at, 1);
    clearTimeout(slot.idle);
    slot.busy = null;
    slot.worker.removeAllListeners();
    slot.worker.on('error', () => undefined);
    void slot.worker.terminate();
  }
}

/** One pool per heap bound in this process (tests may use several; a server, one). */
const pools = new Map<number, DocumentWorkerPool>();

/**
 * Reads one document in a worker thread: `timeoutMs` once a thread takes it, a heap of `memoryMb`,
 * and no later than `waitUntil` (ms since the epoch) for a thread to take it.
 */
export function readInWorker(
  job: Omit<DocumentJob, 'id'>,
  bounds: { readonly timeoutMs: number; readonly waitUntil: number; readonly memoryMb: number },
): Promise<WorkerOutcome> {
  const { timeoutMs, waitUntil, memoryMb } = bounds;
  let pool = pools.get(memoryMb);
  if (pool === undefined) {
    pool = new DocumentWorkerPool(memoryMb);
    pools.set(memoryMb, pool);
  }
  return pool.run(job, timeoutMs, waitUntil);
}
