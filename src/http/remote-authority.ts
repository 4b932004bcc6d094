/**
 * A DefinitionSource over HTTP: the agent resolves definitions from another process's authority
 * (§12.1, AUTHORITY_URL + AUTHORITY_TOKEN), so it holds no definition state that a decision not to
 * teach could leave stale. The agent learns of a lesson by resolving the active definition on its
 * next task (§12.1): the active head is cached for `activeTtlMs` only (default 250 ms), so a lesson
 * takes effect on the next task within about that long; versions are immutable (§10.3), so their
 * content is cached by versionId (the most recent `maxCachedVersions`).
 *
 * With `follow` (issue 15) the agent learns of a new activation by a push instead: it keeps one
 * long-poll open on GET /head?after=<its head> (authority-api.ts), which the authority answers as
 * soon as another version is active. While that follow is up, the head it last answered is used
 * with no TTL, and each new version is fetched (and `onActivated` told) before a task asks for it.
 * When the follow fails (the authority restarting, the connection dropped), the head falls back to
 * the TTL check at once, and the follow retries with backoff (250 ms doubling to 30 s).
 *
 * The token is bound to one tenant (§13.2); asking for any other tenant is refused here rather than
 * silently answered with the token's tenant.
 *
 * One write passes through (§14, split topology): `erase` forwards an operator's erase, with the
 * operator's own authority token, and `forget` drops every definition and handle this process
 * holds from the authority (remote-erase.ts erases the agent's own stores after it).
 *
 * When the authority is down or slow (issue 16; README "When the authority is down or slow"):
 * every call is bounded by `timeoutMs` (AUTHORITY_TIMEOUT_MS), and one that gets no answer, or a
 * 5xx, is AUTHORITY_UNAVAILABLE naming the authority's URL and saying to retry. A new task then
 * resolves to the last head this agent verified (the authority's own answer, never a local guess,
 * §12.1), and the task is pinned to it, so rules-in-force still names exactly what decided it;
 * while the authority stays unreachable that head is answered at once and one background request
 * at a time asks again, so a slow authority does not slow triage, and the first answer ends it.
 * What must be current or has never been fetched fails instead: show-back asks for the version
 * active NOW (§11: never an earlier one), rules-in-force and person handles are the authority's,
 * an unseen version is not in memory.
 *
 * Deliberately does not: write lessons (clients post those to the authority), or queue a call for
 * later: the caller is told to retry.
 */
import {
  ROLES,
  type Authority,
  type EraseResult,
  type LessonResult,
  type RuleInForce,
  type Role,
} from '../domain/authority/index.ts';
import type { Definition, PinnedDefinition, VersionId } from '../domain/definitions/index.ts';
import { DomainError, isDomainError } from '../domain/errors.ts';
import { isPlainObject } from '../domain/json.ts';
import type { LearnableDescriptor } from '../domain/learnables/index.ts';
import type { TenantId } from '../domain/tenant.ts';
import { AUTHORITY_API_PATH } from './authority-api.ts';
import { definitionFromWire } from './definition-wire.ts';
import { callerError, remoteError } from './remote-errors.ts';

/** What the agent needs from an authority, embedded or remote. */
export type DefinitionSource = Pick<Authority, 'descriptors' | 'active' | 'load'>;

export interface RemoteDefinitionSourceOptions {
  /** Base URL of the authority process, e.g. "http://127.0.0.1:8081" (without /authority/v1). */
  readonly url: string;
  /** A bearer token with the `read` role, bound to the tenant this agent serves. */
  readonly token: string;
  /** How long the active head is reused before asking again, in ms. Default 250. */
  readonly activeTtlMs?: number;
  /** How many immutable versions to keep in memory. Default 8. */
  readonly maxCachedVersions?: number;
  /** Per-request timeout in ms (AUTHORITY_TIMEOUT_MS). Default 3000. */
  readonly timeoutMs?: number;
  /**
   * How long a person's handle is reused for display, in ms. Default 1000: a handle erased at the
   * authority (§14) stops appearing in this agent's readings within about that long.
   */
  readonly personTtlMs?: number;
  readonly fetch?: typeof fetch;
  /** Follow the authority's head by long-poll (a push) rather than the TTL alone. Default false. */
  readonly follow?: boolean;
  /** With `follow`: a new version is active (fetched already); e.g. compile its matcher. */
  readonly onActivated?: (definition: Definition) => void;
  /** With `follow`: a failure of the follow worth a line in the log (it retries by itself). */
  readonly log?: (message: string, cause: unknown) => void;
}

export interface RemoteDefinitionSource extends DefinitionSource, Pick<Authority, 'rulesInForce'> {
  /** The tenant the token is bound to (the only one this source answers for). */
  readonly tenant: TenantId;
  /** §13.4, §14: the handle behind a stable person id, asked of the authority; null once erased. */
  personHandle(tenant: TenantId, personId: string): Promise<string | null>;
  /** For /readyz: null when the authority answers GET /head within `timeoutMs` (default 2 s), else why not. */
  reachable(timeoutMs?: number): Promise<string | null>;
  /**
   * §14: posts an erase to the authority with the caller's own `authorization` (the authority
   * authorizes it, §13.2), after checking that token is of this agent's tenant. The authority's
   * refusal comes back as the same DomainError (its code, its words).
   */
  erase(authorization: string, body: unknown): Promise<EraseResult>;
  /**
   * Issue 26 (§13.1, split topology): posts a lesson to the authority with the caller's own
   * `authorization`, once `check` (the agent's corpus) has let it through; `check` runs only after
   * the authority said the token is this tenant's and may teach, so nothing of the corpus is told
   * to anyone else. The authority's answer, with what `check` counted.
   */
  teach(
    authorization: string,
    body: unknown,
    check: () => Promise<LessonResult['alreadyRead']>,
  ): Promise<unknown>;
  /** §14: forgets every version, head and handle fetched so far; returns how many it held. */
  forget(): number;
  /** Whether the follow (a long-poll on the authority's head) is up now. False without `follow`. */
  following(): boolean;
  /** Ends the follow. */
  close(): void;
  /** Why the authority last failed to answer a head request, while it has not answered since; else null. */
  unavailable(): string | null;
}

interface Head {
  readonly definitionVersion: number;
  readonly versionId: VersionId;
}

/** Connects (reads /whoami and /descriptors once) and returns the source. */
export async function createRemoteDefinitionSource(
  options: RemoteDefinitionSourceOptions,
): Promise<RemoteDefinitionSource> {
  const base = options.url.replace(/\/+$/, '') + AUTHORITY_API_PATH;
  const doFetch = options.fetch ?? fetch;
  const ttlMs = options.activeTtlMs ?? 250;
  const maxVersions = Math.max(1, options.maxCachedVersions ?? 8);
  const timeoutMs = options.timeoutMs ?? 3000;

  /** Set while the authority gives no answer: the last call's error; cleared by the next answer. */
  let down: DomainError | null = null;
  function noAnswer(method: string, path: string, why: string, cause?: unknown): DomainError {
    down = unavailable(method, path, why, cause);
    return down;
  }

  /** The authority gave no usable answer: the caller's error, in words, naming where and what to do. */
  function unavailable(method: string, path: string, why: string, cause?: unknown): DomainError {
    return new DomainError(
      'AUTHORITY_UNAVAILABLE',
      `The authority this agent resolves definitions from (${options.url}) ${why} to ${method} ${AUTHORITY_API_PATH}${path.split('?', 1)[0]!}. Nothing was decided for this request; retry in a few seconds. If it persists, the operator should check that authority (AUTHORITY_URL).`,
      cause === undefined ? undefined : { cause },
    );
  }
  const personTtlMs = options.personTtlMs ?? 1000;

  /** One call to the authority, with this agent's token unless `authorization` is given. */
  async function call(
    method: 'GET' | 'POST',
    path: string,
    init: { authorization?: string; body?: unknown } = {},
  ): Promise<unknown> {
    let res: Response;
    let text: string;
    try {
      res = await doFetch(base + path, {
        method,
        headers: {
          authorization: init.authorization ?? `Bearer ${options.token}`,
          accept: 'application/json',
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await res.text(); // within the same timeout: a stopped authority may never finish a body
    } catch (cause) {
      const timedOut = cause instanceof Error && cause.name === 'TimeoutError';
      throw noAnswer(
        method,
        path,
        timedOut
          ? `did not answer within ${timeoutMs} ms (AUTHORITY_TIMEOUT_MS)`
          : `could not be reached (${cause instanceof Error && cause.cause instanceof Error ? cause.cause.message : String(cause)})`,
        cause,
      );
    }
    if (res.status >= 500) throw noAnswer(method, path, `answered ${res.status}`);
    down = null; // it answers (whatever it says)
    let body: unknown;
    try {
      body = text === '' ? null : JSON.parse(text);
    } catch (cause) {
      throw new Error(
        `The authority at ${options.url} answered ${method} ${path} with ${res.status} and a body that is not JSON.`,
        { cause },
      );
    }
    if (!res.ok) {
      // A caller's own token (an erase): the authority's answer is the caller's, as it stands.
      throw init.authorization === undefined
        ? remoteError(res.status, body, path)
        : callerError(res.status, body, options.url);
    }
    return body;
  }
  const get = (path: string) => call('GET', path);

  const whoami = await get('/whoami');
  if (!isPlainObject(whoami) || typeof whoami.tenant !== 'string' || !Array.isArray(whoami.roles)) {
    throw new Error(`The authority at ${options.url} did not say which tenant the token belongs to.`);
  }
  const roles = whoami.roles.filter((r): r is Role => (ROLES as readonly unknown[]).includes(r));
  if (!roles.includes('read') && !roles.includes('admin')) {
    throw new DomainError(
      'FORBIDDEN',
      'AUTHORITY_TOKEN needs the "read" role to resolve definitions. Create one with `npx learnables-triage tokens create --roles read`.',
    );
  }
  const tenant = whoami.tenant as TenantId;

  const descriptorsBody = await get('/descriptors');
  if (!isPlainObject(descriptorsBody) || !Array.isArray(descriptorsBody.learnables)) {
    throw new Error(`The authority at ${options.url} did not list its learnables.`);
  }
  const descriptors = Object.freeze(descriptorsBody.learnables as LearnableDescriptor[]);

  // Immutable versions by id, most recently used last (Map keeps insertion order).
  const versions = new Map<VersionId, Definition>();
  const loading = new Map<VersionId, Promise<Definition>>();
  let head: { value: Head; fetchedAtMs: number } | null = null;
  let headInFlight: Promise<Head> | null = null;

  function checkTenant(asked: TenantId): void {
    if (asked !== tenant) {
      // §13.2: never answer one tenant's question with another tenant's knowledge.
      throw new DomainError(
        'TENANT_UNKNOWN',
        `This agent resolves definitions for tenant "${tenant}" only (its AUTHORITY_TOKEN is bound to it), not "${asked}".`,
      );
    }
  }

  /**
   * A caller's own token, asked of the authority (a write passed through, §13.2): its roles once it
   * is this agent's tenant's, else FORBIDDEN saying so and, from `elsewhere`, what to do instead.
   */
  async function callerInTenant(
    authorization: string,
    elsewhere: (theirs: string) => string,
  ): Promise<readonly unknown[]> {
    const who = await call('GET', '/whoami', { authorization });
    const theirs = isPlainObject(who) && typeof who.tenant === 'string' ? who.tenant : null;
    if (theirs !== tenant) {
      throw new DomainError(
        'FORBIDDEN',
        `This token belongs to tenant "${theirs ?? '?'}"; this agent serves tenant "${tenant}" only${elsewhere(theirs ?? '?')}`,
      );
    }
    return isPlainObject(who) && Array.isArray(who.roles) ? (who.roles as unknown[]) : [];
  }

  function remember(versionId: VersionId, definition: Definition): void {
    versions.delete(versionId);
    versions.set(versionId, definition);
    while (versions.size > maxVersions) {
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
      pending = get(`/versions/${encodeURIComponent(versionId)}`)
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

  /**
   * The active head: the remembered one within `ttlMs`; else the authority's answer; when it gives
   * none, the last verified head (never for a fresh read: §11), while one request at a time asks again.
   */
  async function currentHead(fresh = false): Promise<Head> {
    if (fresh) return askHead(true);
    if (head !== null && (followed || performance.now() - head.fetchedAtMs < ttlMs)) return head.value;
    const last = head;
    if (down !== null && last !== null) {
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
      headInFlight = get('/head')
        .then((body) => {
          if (
            !isPlainObject(body) ||
            typeof body.definitionVersion !== 'number' ||
            typeof body.versionId !== 'string'
          ) {
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

  // The follow (issue 15): one long-poll at a time, each asking for a head other than the one held.
  let followed = false;
  let closed = false;
  const stopFollow = new AbortController();
  async function follow(): Promise<void> {
    let failures = 0;
    while (!closed) {
      try {
        const held = head?.value.definitionVersion;
        const path = held === undefined ? '/head' : `/head?after=${held}&waitMs=${FOLLOW_WAIT_MS}`;
        const res = await doFetch(base + path, {
          headers: { authorization: `Bearer ${options.token}`, accept: 'application/json' },
          signal: AbortSignal.any([stopFollow.signal, AbortSignal.timeout(FOLLOW_WAIT_MS + timeoutMs)]),
        });
        const body: unknown = await res.json();
        if (
          !res.ok ||
          !isPlainObject(body) ||
          typeof body.definitionVersion !== 'number' ||
          typeof body.versionId !== 'string'
        ) {
          throw new Error(
            `The authority at ${options.url} answered GET ${AUTHORITY_API_PATH}${path} with ${res.status}.`,
          );
        }
        const value: Head = { definitionVersion: body.definitionVersion, versionId: body.versionId };
        const changed = head?.value.versionId !== value.versionId;
        // The version first, so a task that sees the new head finds its content cached.
        const definition = changed ? await loadVersion(value.versionId) : undefined;
        head = { value, fetchedAtMs: performance.now() };
        followed = true;
        failures = 0;
        if (definition !== undefined) options.onActivated?.(definition);
      } catch (e) {
        followed = false; // at once: tasks fall back to the TTL check
        if (closed) return;
        options.log?.('following the authority head failed; retrying', e);
        const waitMs = Math.min(30_000, 250 * 2 ** failures++);
        await new Promise<void>((r) => setTimeout(r, waitMs).unref());
      }
    }
  }

  // Person handles for display, briefly: erasure (§14) must reach readings soon, so no long cache.
  const people = new Map<string, { handle: Promise<string | null>; fetchedAtMs: number }>();
  function personHandle(personId: string): Promise<string | null> {
    const now = performance.now();
    const cached = people.get(personId);
    if (cached !== undefined && now - cached.fetchedAtMs < personTtlMs) return cached.handle;
    // Known to be unreachable: the stable id at once (below), rather than a timeout per reading.
    if (down !== null) return Promise.resolve(personId);
    if (people.size >= MAX_CACHED_PEOPLE) people.clear();
    const asked = get(`/people?ids=${encodeURIComponent(personId)}`).then((body) => {
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

  if (options.follow === true) void follow();

  return Object.freeze({
    tenant,
    following: () => followed,
    close() {
      closed = true;
      followed = false;
      stopFollow.abort();
    },
    descriptors: () => descriptors,
    async reachable(timeoutMs = 2000): Promise<string | null> {
      try {
        const res = await doFetch(`${base}/head`, {
          headers: { authorization: `Bearer ${options.token}`, accept: 'application/json' },
          signal: AbortSignal.timeout(timeoutMs),
        });
        await res.body?.cancel();
        if (res.ok) return null;
        return res.status === 401 || res.status === 403
          ? `the authority at ${options.url} refused AUTHORITY_TOKEN (${res.status}); give the agent a token with the read role`
          : `the authority at ${options.url} answered GET ${AUTHORITY_API_PATH}/head with ${res.status}`;
      } catch (e) {
        const cause =
          e instanceof Error && e.cause instanceof Error
            ? e.cause.message
            : e instanceof Error
              ? e.message
              : String(e);
        return `the authority at ${options.url} could not be reached (${cause})`;
      }
    },
    async personHandle(asked: TenantId, personId: string): Promise<string | null> {
      checkTenant(asked);
      return personHandle(personId);
    },
    async active(asked: TenantId, options?: { fresh?: boolean }): Promise<PinnedDefinition> {
      checkTenant(asked);
      const h = await currentHead(options?.fresh === true);
      return Object.freeze({
        definitionVersion: h.definitionVersion,
        definition: await loadVersion(h.versionId),
      });
    },
    async load(asked: TenantId, versionId: VersionId): Promise<Definition> {
      checkTenant(asked);
      return loadVersion(versionId);
    },
    async teach(
      authorization: string,
      body: unknown,
      check: () => Promise<LessonResult['alreadyRead']>,
    ): Promise<unknown> {
      const roles = await callerInTenant(
        authorization,
        (theirs) => `. Post the lesson to the agent of tenant "${theirs}".`,
      );
      if (!roles.includes('teach') && !roles.includes('admin')) {
        throw new DomainError('FORBIDDEN', 'This token may not teach: it needs the "teach" role.');
      }
      const counted = await check();
      const result = await call('POST', '/lessons', { authorization, body });
      return isPlainObject(result) && counted !== undefined ? { ...result, alreadyRead: counted } : result;
    },
    async erase(authorization: string, body: unknown): Promise<EraseResult> {
      await callerInTenant(
        authorization,
        () => `, so it cannot erase there. Use an admin token of "${tenant}" at the authority.`,
      );
      const result = await call('POST', '/erase', { authorization, body });
      if (!isPlainObject(result) || !Array.isArray(result.stores)) {
        throw new Error(`The authority at ${options.url} answered an erase without its stores.`);
      }
      return result as unknown as EraseResult;
    },
    unavailable: () => down?.message ?? null,
    forget(): number {
      const held = versions.size + people.size + (head === null ? 0 : 1);
      versions.clear();
      people.clear();
      head = null;
      return held;
    },
    /** §13.4, asked of the authority (it holds the provenance of every rule). */
    async rulesInForce(asked: TenantId, versionId: VersionId): Promise<RuleInForce[]> {
      checkTenant(asked);
      const body = await get(`/rules-in-force?versionId=${encodeURIComponent(versionId)}`);
      if (!isPlainObject(body) || !Array.isArray(body.rules)) {
        throw new Error(`The authority at ${options.url} answered rules-in-force without a list of rules.`);
      }
      return body.rules as RuleInForce[];
    },
  });
}

/** How long one follow long-poll asks the authority to wait, in ms (under its HEAD_WAIT_MAX_MS). */
const FOLLOW_WAIT_MS = 25_000;
/** Person handles kept at most (a reading names a handful; the cache only spares repeated calls). */
const MAX_CACHED_PEOPLE = 1000;
