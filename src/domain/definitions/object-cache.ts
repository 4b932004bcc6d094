/**
 * An in-memory cache of parsed, frozen objects keyed by their content hash, and a reader that
 * serves objects from it and fetches only the misses (in one batch) from an async getter. Because
 * objects are content-addressed, a cached object can never be stale: loading the version made by
 * a lesson fetches only the nodes on the changed path.
 *
 * Does not own: where objects are stored, nor the tenant scope (the getter carries both).
 */
import type { JsonValue } from '../json.ts';
import { sha256Hex } from './content-address.ts';

/** Default cache capacity, in objects (an entry, a tree node or a root each count as one). */
const DEFAULT_OBJECT_CACHE_ENTRIES = 400_000;
/**
 * Keys whose string values every mark repeats: its provenance's `taughtBy` and `at`
 * (one lesson stamps every mark it writes alike). Their values are kept once in memory, however
 * many objects hold them: 100,000 customers' marks held 200,000 copies of a few hundred
 * timestamps. Only provenance: a lesson value's own keys are its learnable's (§9).
 */
const INTERNED_KEYS: ReadonlySet<string> = new Set(['taughtBy', 'at']);
/** Most distinct values interned; then the table starts again (values already shared stay shared). */
const MAX_INTERNED = 100_000;

export interface ObjectCache {
  get(hash: string): JsonValue | undefined;
  /** Keeps `value`, parsed from a body of `bodyChars` characters (its size estimate: OBJECT_BYTES_PER_CHAR). */
  set(hash: string, value: JsonValue, bodyChars: number): void;
  delete(hash: string): void;
  /**
   * Forgets every object, and every interned value (§14: an erase made elsewhere, whose identifier
   * this process cannot know).
   */
  clear(): void;
  /** The one copy of `value` this cache keeps for objects' repeated strings (INTERNED_KEYS). */
  intern(value: string): string;
  /** How many distinct values are interned (tests, diagnostics). */
  readonly internedValues: number;
  readonly size: number;
  /** Estimated bytes of the parsed objects held (a tenant's memory). */
  readonly bytes: number;
}

/**
 * Heap bytes of a parsed, frozen object per character of its canonical body, plus a fixed cost per
 * object (its map entry, hash string and shape): measured on customer entries of one to five marks
 * (tenant-memory.test.ts checks the sum against a heap measure).
 */
export const OBJECT_BYTES_PER_CHAR = 1;
export const OBJECT_BYTES_EACH = 120;
const estimate = (bodyChars: number): number => OBJECT_BYTES_EACH + bodyChars * OBJECT_BYTES_PER_CHAR;

/** A least-recently-used cache of parsed objects. */
export function createObjectCache(maxEntries: number = DEFAULT_OBJECT_CACHE_ENTRIES): ObjectCache {
  const map = new Map<string, { readonly value: JsonValue; readonly bytes: number }>();
  const interned = new Map<string, string>();
  let bytes = 0;
  const drop = (hash: string): void => {
    const held = map.get(hash);
    if (held === undefined) return;
    map.delete(hash);
    bytes -= held.bytes;
  };
  return {
    intern(value) {
      const kept = interned.get(value);
      if (kept !== undefined) return kept;
      if (interned.size >= MAX_INTERNED) interned.clear();
      interned.set(value, value);
      return value;
    },
    get(hash) {
      const held = map.get(hash);
      if (held !== undefined) {
        map.delete(hash);
        map.set(hash, held);
      }
      return held?.value;
    },
    set(hash, value, bodyChars) {
      drop(hash);
      const held = { value, bytes: estimate(bodyChars) };
      map.set(hash, held);
      bytes += held.bytes;
      while (map.size > maxEntries) {
        const oldest = map.keys().next();
        if (oldest.done === true) break;
        drop(oldest.value);
      }
    },
    delete: drop,
    clear() {
      map.clear();
      interned.clear();
      bytes = 0;
    },
    get bytes() {
      return bytes;
    },
    get size() {
      return map.size;
    },
    get internedValues() {
      return interned.size;
    },
  };
}

/** Fetches object bodies (canonical JSON) by hash; missing ones are absent from the result. */
export type ObjectGetter = (hashes: readonly string[]) => Promise<ReadonlyMap<string, string>>;

/** Raised when a referenced object is absent or does not hash to its address. */
export class MissingObjectError extends Error {
  readonly hashes: readonly string[];
  constructor(hashes: readonly string[], why: string) {
    super(
      `${hashes.length} object(s) ${why}: ${hashes.slice(0, 3).join(', ')}${hashes.length > 3 ? ', …' : ''}`,
    );
    this.name = 'MissingObjectError';
    this.hashes = hashes;
  }
}

export interface ObjectReader {
  /** Parsed, frozen objects for every hash; throws MissingObjectError if any is absent or corrupt. */
  getMany(hashes: readonly string[]): Promise<Map<string, JsonValue>>;
  get(hash: string): Promise<JsonValue>;
  /** Remember objects just written (so loading the new version fetches nothing). */
  remember(hash: string, body: string): void;
}

export function createObjectReader(getter: ObjectGetter, cache: ObjectCache): ObjectReader {
  async function getMany(hashes: readonly string[]): Promise<Map<string, JsonValue>> {
    const out = new Map<string, JsonValue>();
    const misses: string[] = [];
    for (const h of hashes) {
      if (out.has(h)) continue;
      const hit = cache.get(h);
      if (hit === undefined) misses.push(h);
      else out.set(h, hit);
    }
    if (misses.length > 0) {
      const unique = [...new Set(misses)];
      const bodies = await getter(unique);
      const absent: string[] = [];
      const corrupt: string[] = [];
      for (const h of unique) {
        const body = bodies.get(h);
        if (body === undefined) {
          absent.push(h);
          continue;
        }
        // Content addressing is also an integrity check: a torn or altered body cannot pass.
        if (sha256Hex(body) !== h) {
          corrupt.push(h);
          continue;
        }
        const value = frozenInterned(JSON.parse(body) as JsonValue, cache);
        cache.set(h, value, body.length);
        out.set(h, value);
      }
      if (absent.length > 0) throw new MissingObjectError(absent, 'are missing from the store');
      if (corrupt.length > 0) throw new MissingObjectError(corrupt, 'do not match their hash');
    }
    return out;
  }
  return {
    getMany,
    async get(hash) {
      const m = await getMany([hash]);
      return m.get(hash) as JsonValue;
    },
    remember(hash, body) {
      if (cache.get(hash) === undefined)
        cache.set(hash, frozenInterned(JSON.parse(body) as JsonValue, cache), body.length);
    },
  };
}

/** Freezes a freshly parsed object deeply, its INTERNED_KEYS' string values replaced by the cache's copies. */
export function frozenInterned(value: JsonValue, cache: Pick<ObjectCache, 'intern'>): JsonValue {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (const v of value as readonly JsonValue[]) frozenInterned(v, cache);
    return Object.freeze(value as JsonValue[]);
  }
  const o = value as Record<string, JsonValue>;
  for (const key of Object.keys(o)) {
    const v = o[key]!;
    if (typeof v === 'string') {
      if (INTERNED_KEYS.has(key)) o[key] = cache.intern(v);
    } else frozenInterned(v, cache);
  }
  return Object.freeze(o);
}
