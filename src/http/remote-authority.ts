/**
 * A DefinitionSource over HTTP: the agent resolves definitions from another process's authority
 * (§12.1, AUTHORITY_URL + AUTHORITY_TOKEN), so it holds no definition state that a decision not to
 * teach could leave stale. The agent learns of a lesson by resolving the active definition on its
 * next task (§12.1): the active head is cached for `activeTtlMs` only (default 250 ms), so a lesson
 * takes effect on the next task within about that long; versions are immutable (§10.3), so their
 * content is cached by versionId (the most recent `maxCachedVersions`).
 *
 * With `follow` the agent learns of a new activation by a push instead: it keeps one
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
 * When the authority is down or slow (README "When the authority is down or slow"):
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
 * Its parts: the calls and the up/down state (remote-calls.ts), what is kept and for how long
 * (remote-cache.ts), the follow (remote-follow.ts). This module connects and answers for one tenant.
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
import { DomainError } from '../domain/errors.ts';
import { isPlainObject } from '../domain/json.ts';
import type { LearnableDescriptor } from '../domain/learnables/index.ts';
import type { TenantId } from '../domain/tenant.ts';
import { AUTHORITY_API_PATH } from './authority-api.ts';
import { createAuthorityCalls, type AuthorityCalls } from './remote-calls.ts';
import { createRemoteCache } from './remote-cache.ts';
import { followHead } from './remote-follow.ts';

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

/** Connects (reads /whoami and /descriptors once) and returns the source. */
export async function createRemoteDefinitionSource(
  options: RemoteDefinitionSourceOptions,
): Promise<RemoteDefinitionSource> {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 3000;
  const calls = createAuthorityCalls({ url: options.url, token: options.token, timeoutMs, fetch: doFetch });
  const { tenant, descriptors } = await connect(calls, options.url);
  const cache = createRemoteCache(calls, {
    url: options.url,
    ttlMs: options.activeTtlMs ?? 250,
    maxVersions: Math.max(1, options.maxCachedVersions ?? 8),
    personTtlMs: options.personTtlMs ?? 1000,
  });

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
    const who = await calls.call('GET', '/whoami', { authorization });
    const theirs = isPlainObject(who) && typeof who.tenant === 'string' ? who.tenant : null;
    if (theirs !== tenant) {
      throw new DomainError(
        'FORBIDDEN',
        `This token belongs to tenant "${theirs ?? '?'}"; this agent serves tenant "${tenant}" only${elsewhere(theirs ?? '?')}`,
      );
    }
    return isPlainObject(who) && Array.isArray(who.roles) ? (who.roles as unknown[]) : [];
  }

  const stopFollow =
    options.follow === true
      ? followHead(cache, {
          url: options.url,
          base: calls.base,
          token: options.token,
          timeoutMs,
          fetch: doFetch,
          onActivated: options.onActivated,
          log: options.log,
        })
      : () => {};

  return Object.freeze({
    tenant,
    following: () => cache.following(),
    close: stopFollow,
    descriptors: () => descriptors,
    reachable: (waitMs = 2000) => reachable(calls.base, options, waitMs, doFetch),
    async personHandle(asked: TenantId, personId: string): Promise<string | null> {
      checkTenant(asked);
      return cache.personHandle(personId);
    },
    async active(asked: TenantId, options?: { fresh?: boolean }): Promise<PinnedDefinition> {
      checkTenant(asked);
      const h = await cache.currentHead(options?.fresh === true);
      return Object.freeze({
        definitionVersion: h.definitionVersion,
        definition: await cache.loadVersion(h.versionId),
      });
    },
    async load(asked: TenantId, versionId: VersionId): Promise<Definition> {
      checkTenant(asked);
      return cache.loadVersion(versionId);
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
      const result = await calls.call('POST', '/lessons', { authorization, body });
      return isPlainObject(result) && counted !== undefined ? { ...result, alreadyRead: counted } : result;
    },
    async erase(authorization: string, body: unknown): Promise<EraseResult> {
      await callerInTenant(
        authorization,
        () => `, so it cannot erase there. Use an admin token of "${tenant}" at the authority.`,
      );
      const result = await calls.call('POST', '/erase', { authorization, body });
      if (!isPlainObject(result) || !Array.isArray(result.stores)) {
        throw new Error(`The authority at ${options.url} answered an erase without its stores.`);
      }
      return result as unknown as EraseResult;
    },
    unavailable: () => calls.down()?.message ?? null,
    forget: () => cache.forget(),
    /** §13.4, asked of the authority (it holds the provenance of every rule). */
    async rulesInForce(asked: TenantId, versionId: VersionId): Promise<RuleInForce[]> {
      checkTenant(asked);
      const body = await calls.get(`/rules-in-force?versionId=${encodeURIComponent(versionId)}`);
      if (!isPlainObject(body) || !Array.isArray(body.rules)) {
        throw new Error(`The authority at ${options.url} answered rules-in-force without a list of rules.`);
      }
      return body.rules as RuleInForce[];
    },
  });
}

/** Who the token is (its tenant, which must have the read role) and the authority's learnables. */
async function connect(
  calls: AuthorityCalls,
  url: string,
): Promise<{ tenant: TenantId; descriptors: readonly LearnableDescriptor[] }> {
  const whoami = await calls.get('/whoami');
  if (!isPlainObject(whoami) || typeof whoami.tenant !== 'string' || !Array.isArray(whoami.roles)) {
    throw new Error(`The authority at ${url} did not say which tenant the token belongs to.`);
  }
  const roles = whoami.roles.filter((r): r is Role => (ROLES as readonly unknown[]).includes(r));
  if (!roles.includes('read') && !roles.includes('admin')) {
    throw new DomainError(
      'FORBIDDEN',
      'AUTHORITY_TOKEN needs the "read" role to resolve definitions. Create one with `npx learnables-triage tokens create --roles read`.',
    );
  }
  const body = await calls.get('/descriptors');
  if (!isPlainObject(body) || !Array.isArray(body.learnables)) {
    throw new Error(`The authority at ${url} did not list its learnables.`);
  }
  return {
    tenant: whoami.tenant as TenantId,
    descriptors: Object.freeze(body.learnables as LearnableDescriptor[]),
  };
}

/** For /readyz: null when the authority answers GET /head within `waitMs`, else why not, in words. */
async function reachable(
  base: string,
  options: Pick<RemoteDefinitionSourceOptions, 'url' | 'token'>,
  waitMs: number,
  doFetch: typeof fetch,
): Promise<string | null> {
  try {
    const res = await doFetch(`${base}/head`, {
      headers: { authorization: `Bearer ${options.token}`, accept: 'application/json' },
      signal: AbortSignal.timeout(waitMs),
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
}
