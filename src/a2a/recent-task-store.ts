/**
 * A write-through TaskStore over the durable one (the SDK's DatabaseTaskStore): every save is
 * written to the inner store and awaited before it returns, exactly as before, so what survives a
 * crash is unchanged. What it adds: a copy of each task this process saved in the last moment, so
 * the SDK's reads of a task it has just written (it reloads the task before applying every event,
 * and again to answer each task event) do not go back to the database and parse the whole history.
 *
 * A copy is served only while it is younger than `ttlMs` (default 1 s) and at most `maxTasks` are
 * kept (default 256, the oldest dropped first); otherwise the read goes to the inner store. Within
 * this process every write of a task passes through here, so a copy is never older than the row.
 * The short age bounds what another process writing the same task row could make stale: in the
 * deployed topologies no other process writes tasks (the CLI and the authority never do).
 *
 * A copy past its age is dropped, not only skipped: each call sweeps the expired ones from the
 * oldest end, and a timer (unref'd) sweeps once the store falls idle, so a burst of large mail does
 * not leave its tasks' raw bytes held in memory after it (16 parked 24.6 MB mails kept
 * ~30 MiB each until the process restarted).
 *
 * Deliberately does not: cache misses (a task not found is asked of the inner store, except an id
 * the executor reports the SDK has just made up for a new task), or
 * share objects with the SDK (it mutates what it loads): copies go in and out (copyTask), sharing
 * only the bytes of raw parts, which nobody writes into.
 */
import type { ListTasksRequest, ListTasksResponse, Task } from '@a2a-js/sdk';
import type { OwnerResolver, ServerCallContext, TaskStore } from '@a2a-js/sdk/server';

export interface RecentTaskStoreOptions {
  /** The inner store's owner scope, so a copy is only ever served to the scope that saved it (§13.2). */
  readonly ownerResolver: OwnerResolver;
  /** How long a saved copy is served, in ms. Default 1000. */
  readonly ttlMs?: number;
  /**
   * Other processes write the same task rows (replicas on one PostgreSQL): a saved copy is served
   * only to the call that saved it (the SDK reads back what it has just written, to answer), since
   * another replica may have written the row since for another call. A new task id this process has
   * just made up is still answered "not found" from memory: nothing elsewhere can know it yet
   * (one round trip less per triage; issue 51: the read-back, one more). Default false.
   */
  readonly shared?: boolean;
  /** Most copies kept at once. Default 256. */
  readonly maxTasks?: number;
  /** Monotonic milliseconds (tests). Default performance.now. */
  readonly nowMs?: () => number;
  /**
   * Runs `sweep` once after `ms` (tests run it by hand). Default: an unref'd setTimeout, so an idle
   * store never keeps the process alive.
   */
  readonly later?: (sweep: () => void, ms: number) => void;
}

interface Copy {
  /** Undefined: known not to exist (a task id the SDK has just made up). */
  readonly task: Task | undefined;
  readonly savedAtMs: number;
  readonly seq: number;
}

export interface RecentTaskStore extends TaskStore {
  /**
   * A task id the SDK has just generated for a new task (the request named no task): nothing is
   * stored under it yet, so the SDK's first read of it need not ask the inner store.
   */
  expectNew(taskId: string, context: ServerCallContext): void;
  /** Copies held now (expired ones are dropped by the next call or the idle sweep). */
  heldCopies(): number;
  /** §14: drops every copy (an erase rewrote the rows; no copy from before it may be served). */
  forgetAll(): void;
}

export function recentTaskStore(inner: TaskStore, options: RecentTaskStoreOptions): RecentTaskStore {
  const ttlMs = options.ttlMs ?? 1000;
  const maxTasks = Math.max(1, options.maxTasks ?? 256);
  const nowMs = options.nowMs ?? (() => performance.now());
  const later =
    options.later ??
    ((sweep: () => void, ms: number) => {
      setTimeout(sweep, ms).unref();
    });
  const copies = new Map<string, Copy>();
  /** Shared rows: what each call saved, for that call's own reads (gone with the call's context). */
  const savedByCall = new WeakMap<ServerCallContext, Map<string, Copy>>();
  let seq = 0;
  let sweepPending = false;

  // Map order is age order (every save re-inserts), so the expired copies are a prefix.
  const sweep = (): void => {
    const now = nowMs();
    for (const [key, copy] of copies) {
      if (now - copy.savedAtMs <= ttlMs) break;
      copies.delete(key);
    }
    while (copies.size > maxTasks) copies.delete(copies.keys().next().value!);
    if (copies.size > 0 && !sweepPending) {
      sweepPending = true;
      later(
        () => {
          sweepPending = false;
          sweep();
        },
        Math.max(0, ttlMs) + 50,
      );
    }
  };

  // The same scope the SDK's stores use: the call's tenant and the resolved owner.
  const keyOf = (taskId: string, context: ServerCallContext): string =>
    `${context.tenant ?? ''}\u0000${options.ownerResolver(context)}\u0000${taskId}`;

  return {
    async save(task, context) {
      const key = keyOf(task.id, context);
      if (options.shared === true) {
        copies.delete(key); // it exists now: every later read of another call goes to the rows
        const copy = copyTask(task);
        await inner.save(task, context);
        const mine = savedByCall.get(context) ?? new Map<string, Copy>();
        mine.set(key, { task: copy, savedAtMs: nowMs(), seq: ++seq });
        savedByCall.set(context, mine);
        return;
      }
      const mine = ++seq;
      const copy = copyTask(task);
      try {
        await inner.save(task, context);
      } catch (e) {
        copies.delete(key);
        throw e;
      }
      // Saves of one task reach the inner store in call order; never let an older one win here.
      const held = copies.get(key);
      if (held !== undefined && held.seq > mine) return;
      copies.delete(key); // re-insert: Map order is age order
      copies.set(key, { task: copy, savedAtMs: nowMs(), seq: mine });
      sweep();
    },

    async load(taskId, context) {
      sweep();
      const key = keyOf(taskId, context);
      const own = savedByCall.get(context)?.get(key);
      if (own?.task !== undefined && nowMs() - own.savedAtMs <= ttlMs) return copyTask(own.task);
      const held = copies.get(key);
      if (held !== undefined) {
        if (nowMs() - held.savedAtMs <= ttlMs)
          return held.task === undefined ? undefined : copyTask(held.task);
        copies.delete(key);
      }
      return inner.load(taskId, context);
    },

    expectNew(taskId, context) {
      const key = keyOf(taskId, context);
      if (copies.has(key)) return; // saved already: never hide it
      copies.set(key, { task: undefined, savedAtMs: nowMs(), seq: ++seq });
      sweep();
    },

    heldCopies: () => copies.size,

    forgetAll() {
      copies.clear();
    },

    list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
      return inner.list(params, context);
    },
  };
}

/** Thrown inside plainCopy on anything that is not plain data, to fall back to structuredClone. */
class NotPlainData extends Error {}
const NOT_PLAIN = new NotPlainData('not plain data');

/**
 * A deep copy of a task: tasks are plain data (objects, arrays, strings, numbers, booleans,
 * undefined and the bytes of raw parts), which a direct walk copies several times faster than
 * structuredClone. Anything else makes it fall back to structuredClone.
 *
 * The bytes of a raw part are shared, not copied: nothing writes into them (the SDK's codecs and
 * the executor only read them; an erase or retention rewrites the stored row, not these bytes), and
 * copying them on every save and every read held a 25 MB mail several times over.
 * Everything around them (the part, the message, the history array) is copied, so the SDK may
 * replace any of it in its copy without touching ours.
 */
export function copyTask(task: Task): Task {
  try {
    return plainCopy(task) as Task;
  } catch (e) {
    if (e === NOT_PLAIN) return structuredClone(task);
    throw e;
  }
}

function plainCopy(v: unknown): unknown {
  if (v === null || typeof v !== 'object') {
    if (typeof v === 'function' || typeof v === 'symbol') throw NOT_PLAIN;
    return v;
  }
  if (Array.isArray(v)) return v.map(plainCopy);
  if (v instanceof Uint8Array) {
    if (Object.getPrototypeOf(v) !== Uint8Array.prototype && !Buffer.isBuffer(v)) throw NOT_PLAIN;
    return v; // immutable by convention: shared (see copyTask)
  }
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) throw NOT_PLAIN;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(v)) out[key] = plainCopy((v as Record<string, unknown>)[key]);
  return out;
}
