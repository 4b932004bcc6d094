/**
 * What an agent keeps of its remote authority's answers (remote-authority.ts), and for how long:
 *
 * - versions by id, immutable (§10.3), the most recent `maxVersions`; a version asked for while it
 *   is being fetched shares that fetch;
 * - the active head: while the follow is up (remote-follow.ts) the head it last answered, with no
 *   TTL; otherwise for `ttlMs`. When the authority gives no answer, the last verified head (never
 *   for a fresh read, §11: the version active NOW), while one request at a time asks again;
 * - person handles for display, for `personTtlMs` only: an erase (§14) must reach readings soon.
 *
 * Owns: those three and `forget` (§14). Does not own: the wire (remote-calls.ts).
 */
import type { Definition, VersionId } from '../domain/definitions/index.ts';
import { isDomainError } from '../domain/errors.ts';
import { isPlainObject } from '../domain/json.ts';
import { definitionFromWire } from './definition-wire.ts';
import type { AuthorityCalls } from './remote-calls.ts';

export interface Head {
  readonly definitionVersion: number;
  readonly versionId: VersionId;
}

export function isHead(body: unknown): body is Head {
  return (
    isPlainObject(body) && typeof body.definitionVersion === 'number' && typeof body.versionId === 'string'
  );
}

export interface RemoteCache {
  loadVersion(versionId: VersionId): Promise<Definition>;
  currentHead(fresh?: boolean): Promise<Head>;
  /** The head the follow answered; held with no TTL while `following(true)`. */
  followedTo(value: Head): void;
  /** The head held now, if any. */
  held(): Head | undefined;
  /** Whether the follow is up: set by the follow, read by every head request. */
  following(up?: boolean): boolean;
  /** The handle behind a stable person id; the id itself while the authority does not answer. */
  personHandle(personId: string): Promise<string | null>;
  /** §14: forgets every version, head and handle; returns how many it held. */
  forget(): number;
}

/** Person handles kept at most (a reading names a handful; the cache only spares repeated calls). */
const MAX_CACHED_PEOPLE = 1000;

export function createRemoteCache(
  calls: AuthorityCalls,
  options: {
    readonly url: string;
    readonly ttlMs: number;
    readonly maxVersions: number;
    readonly personTtlMs: number;
  },
): RemoteCache {
  // Immutable versions by id, most recently used last (Map keeps insertion order).
  const versions = new Map<VersionId, Definition>();
  const loading = new Map<VersionId, Promise<Definition>>();
  let head: { value: Head; fetchedAtMs: number } | null = null;
  let headInFlight: Promise<Head> | null = null;
  let followed = false;
  const people = new Map<string, { handle: Promise<string | null>; fetchedAtMs: number }>();

  function remember(versionId: VersionId, definition: Definition): void {
    versions.delete(versionId);
    versions.set(versionId, definition);
    while (versions.size > options.maxVersions) {
      const oldest = versions.keys().next().value;
      if (oldest === undefined) break;
      versions.delete(oldest);
    }
  }

  async function loadVersion(versionId: VersionId): Promise<Definition> {
    const cached = versions.get(versionId);
    if (cached !== undefined) {
      remember(versionId, cached);
      return cached;
    }
    let pending = loading.get(versionId);
    if (pending === undefined) {
      pending = calls
        .get(`/versions/${encodeURIComponent(versionId)}`)
        .then((body) => {
          const definition = definitionFromWire(body);
          if (definition.versionId !== versionId) {
            throw new Error(`The authority answered version ${versionId} with ${definition.versionId}.`);
          }
          remember(versionId, definition);
          return definition;
        })
        .finally(() => loading.delete(versionId));
      loading.set(versionId, pending);
    }
    return pending;
  }

  async function currentHead(fresh = false): Promise<Head> {
    if (fresh) return askHead(true);
    if (head !== null && (followed || performance.now() - head.fetchedAtMs < options.ttlMs))
      return head.value;
    const last = head;
    if (calls.down() !== null && last !== null) {
      // Known to be unreachable: answer at once on the last verified version; ask again behind it.
      if (headInFlight === null) askHead(false).catch(() => {});
      return last.value;
    }
    try {
      return await askHead(false);
    } catch (e) {
      if (last === null || !isDomainError(e, 'AUTHORITY_UNAVAILABLE')) throw e;
      return last.value;
    }
  }

  function askHead(fresh: boolean): Promise<Head> {
    // A fresh read (show-back, §11: the version active NOW) never rides on a request begun earlier.
    if (headInFlight === null || fresh) {
      const startedMs = performance.now();
      headInFlight = calls
        .get('/head')
        .then((body) => {
          if (!isHead(body)) {
            throw new Error(
              `The authority at ${options.url} answered /head without a definitionVersion and versionId.`,
            );
          }
          const value: Head = { definitionVersion: body.definitionVersion, versionId: body.versionId };
          head = { value, fetchedAtMs: startedMs };
          return value;
        })
        .finally(() => {
          headInFlight = null;
        });
    }
    return headInFlight;
  }

  function personHandle(personId: string): Promise<string | null> {
    const now = performance.now();
    const cached = people.get(personId);
    if (cached !== undefined && now - cached.fetchedAtMs < options.personTtlMs) return cached.handle;
    // Known to be unreachable: the stable id at once (below), rather than a timeout per reading.
    if (calls.down() !== null) return Promise.resolve(personId);
    if (people.size >= MAX_CACHED_PEOPLE) people.clear();
    const asked = calls.get(`/people?ids=${encodeURIComponent(personId)}`).then((body) => {
      const list = isPlainObject(body) && Array.isArray(body.people) ? body.people : null;
      const found = list?.find((p) => isPlainObject(p) && p.id === personId) as
        { handle?: unknown } | undefined;
      if (found === undefined) {
        throw new Error(`The authority at ${options.url} answered /people without person ${personId}.`);
      }
      return typeof found.handle === 'string' ? found.handle : null;
    });
    // The authority unreachable: a reading names the teacher by the stable person id, never by a
    // handle remembered past personTtlMs (an erase, §14, may have removed it meanwhile).
    const handle = asked.catch((e: unknown) => {
      if (isDomainError(e, 'AUTHORITY_UNAVAILABLE')) return personId;
      throw e;
    });
    // A failed lookup is not remembered: the next reading asks again.
    const entry = { handle, fetchedAtMs: now };
    asked.catch(() => {
      if (people.get(personId) === entry) people.delete(personId);
    });
    people.set(personId, entry);
    return handle;
  }

  return {
    loadVersion,
    currentHead,
    followedTo: (value) => {
      head = { value, fetchedAtMs: performance.now() };
    },
    held: () => head?.value,
    following: (up) => (followed = up ?? followed),
    personHandle,
    forget() {
      const count = versions.size + people.size + (head === null ? 0 : 1);
      versions.clear();
      people.clear();
      head = null;
      return count;
    },
  };
}
