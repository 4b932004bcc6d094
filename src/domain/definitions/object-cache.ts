/**
 * An in-memory cache of parsed, frozen objects keyed by their content hash, and a reader that
 * serves objects from it and fetches only the misses (in one batch) from an async getter. Because
 * objects are content-addressed, a cached object can never be stale: loading the version made by
 * a lesson fetches only the nodes on the changed path.
 *
 * Does not own: where objects are stored, nor the tenant scope (the getter carries both).
 */
import { deepFreeze, type JsonValue } from '../json.ts';
import { sha256Hex } from './content-address.ts';

/** Default cache capacity, in objects (an entry, a tree node or a root each count as one). */
const DEFAULT_OBJECT_CACHE_ENTRIES = 400_000;

export interface ObjectCache {
  get(hash: string): JsonValue | undefined;
  set(hash: string, value: JsonValue): void;
  delete(hash: string): void;
  /** Forgets every object (§14: an erase made elsewhere, whose identifier this process cannot know). */
  clear(): void;
  readonly size: number;
}

/** A least-recently-used cache of parsed objects. */
export function createObjectCache(maxEntries: number = DEFAULT_OBJECT_CACHE_ENTRIES): ObjectCache {
  const map = new Map<string, JsonValue>();
  return {
    get(hash) {
      const v = map.get(hash);
      if (v !== undefined) {
        map.delete(hash);
        map.set(hash, v);
      }
      return v;
    },
    set(hash, value) {
      map.delete(hash);
      map.set(hash, value);
      while (map.size > maxEntries) {
        const oldest = map.keys().next();
        if (oldest.done === true) break;
        map.delete(oldest.value);
      }
    },
    delete(hash) {
      map.delete(hash);
    },
    clear() {
      map.clear();
    },
    get size() {
      return map.size;
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
        const value = deepFreeze(JSON.parse(body) as JsonValue);
        cache.set(h, value);
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
      if (cache.get(hash) === undefined) cache.set(hash, deepFreeze(JSON.parse(body) as JsonValue));
    },
  };
}
