/**
 * The follow of a remote authority's head (remote-authority.ts `follow`): one long-poll at a time on
 * GET /head?after=<the head held>, which the authority answers as soon as another version is
 * active. Each new version is fetched before the head moves to it, so a task that sees the new head
 * finds its content cached, and then `onActivated` is told.
 *
 * While the follow is up, the cache holds the head with no TTL. When it fails (the authority
 * restarting, the connection dropped) the cache falls back to the TTL at once, and the follow
 * retries with backoff (250 ms doubling to 30 s).
 */
import type { Definition } from '../domain/definitions/index.ts';
import { AUTHORITY_API_PATH } from './authority-api.ts';
import { isHead, type RemoteCache } from './remote-cache.ts';

/** How long one follow long-poll asks the authority to wait, in ms (under its HEAD_WAIT_MAX_MS). */
const FOLLOW_WAIT_MS = 25_000;
/** The follow's retry backoff: the first wait and the longest, in ms. */
const RETRY_FIRST_MS = 250;
const RETRY_MAX_MS = 30_000;

export interface FollowOptions {
  readonly url: string;
  readonly base: string;
  readonly token: string;
  readonly timeoutMs: number;
  readonly fetch: typeof fetch;
  readonly onActivated?: ((definition: Definition) => void) | undefined;
  readonly log?: ((message: string, cause: unknown) => void) | undefined;
}

/** Starts following; the returned function ends it. */
export function followHead(cache: RemoteCache, options: FollowOptions): () => void {
  let closed = false;
  const stop = new AbortController();
  async function once(): Promise<void> {
    const held = cache.held()?.definitionVersion;
    const path = held === undefined ? '/head' : `/head?after=${held}&waitMs=${FOLLOW_WAIT_MS}`;
    const res = await options.fetch(options.base + path, {
      headers: { authorization: `Bearer ${options.token}`, accept: 'application/json' },
      signal: AbortSignal.any([stop.signal, AbortSignal.timeout(FOLLOW_WAIT_MS + options.timeoutMs)]),
    });
    const body: unknown = await res.json();
    if (!res.ok || !isHead(body)) {
      throw new Error(
        `The authority at ${options.url} answered GET ${AUTHORITY_API_PATH}${path} with ${res.status}.`,
      );
    }
    const value = { definitionVersion: body.definitionVersion, versionId: body.versionId };
    const changed = cache.held()?.versionId !== value.versionId;
    // The version first, so a task that sees the new head finds its content cached.
    const definition = changed ? await cache.loadVersion(value.versionId) : undefined;
    cache.followedTo(value);
    cache.following(true);
    if (definition !== undefined) options.onActivated?.(definition);
  }
  void (async () => {
    let failures = 0;
    while (!closed) {
      try {
        await once();
        failures = 0;
      } catch (e) {
        cache.following(false); // at once: tasks fall back to the TTL check
        if (closed) return;
        options.log?.('following the authority head failed; retrying', e);
        const waitMs = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** failures++);
        await new Promise<void>((r) => setTimeout(r, waitMs).unref());
      }
    }
  })();
  return () => {
    closed = true;
    cache.following(false);
    stop.abort();
  };
}
