/**
 * The calls an agent makes to its remote authority (remote-authority.ts): one request at a time
 * bounded by `timeoutMs` (AUTHORITY_TIMEOUT_MS), with this agent's token or a caller's own.
 *
 * An answer that never comes, or a 5xx, is AUTHORITY_UNAVAILABLE naming the authority's URL and
 * saying to retry; until the authority answers again, `down()` holds that error, so the cache can
 * answer from what it verified last instead of waiting out a timeout per task.
 *
 * Owns: the wire and the up/down state. Does not own: what is cached, or what an answer means.
 */
import { DomainError } from '../domain/errors.ts';
import { AUTHORITY_API_PATH } from './authority-api.ts';
import { callerError, remoteError } from './remote-errors.ts';

export interface AuthorityCallsOptions {
  /** Base URL of the authority process (without /authority/v1). */
  readonly url: string;
  /** This agent's bearer token. */
  readonly token: string;
  /** Per-request timeout in ms. */
  readonly timeoutMs: number;
  readonly fetch: typeof fetch;
}

export interface AuthorityCalls {
  /** The authority's API root, e.g. "http://127.0.0.1:8081/authority/v1". */
  readonly base: string;
  /** One call, with this agent's token unless `authorization` (a caller's own) is given. */
  call(
    method: 'GET' | 'POST',
    path: string,
    init?: { authorization?: string; body?: unknown },
  ): Promise<unknown>;
  get(path: string): Promise<unknown>;
  /** The last call's AUTHORITY_UNAVAILABLE while the authority has not answered since; else null. */
  down(): DomainError | null;
}

export function createAuthorityCalls(options: AuthorityCallsOptions): AuthorityCalls {
  const base = options.url.replace(/\/+$/, '') + AUTHORITY_API_PATH;
  const { timeoutMs } = options;
  let down: DomainError | null = null;
  function noAnswer(method: string, path: string, why: string, cause?: unknown): DomainError {
    down = unavailable(options.url, method, path, why, cause);
    return down;
  }

  async function send(
    method: 'GET' | 'POST',
    path: string,
    init: { authorization?: string; body?: unknown },
  ): Promise<{ res: Response; text: string }> {
    try {
      const res = await options.fetch(base + path, {
        method,
        headers: {
          authorization: init.authorization ?? `Bearer ${options.token}`,
          accept: 'application/json',
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      // Within the same timeout: a stopped authority may never finish a body.
      return { res, text: await res.text() };
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
  }

  async function call(
    method: 'GET' | 'POST',
    path: string,
    init: { authorization?: string; body?: unknown } = {},
  ): Promise<unknown> {
    const { res, text } = await send(method, path, init);
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

  return { base, call, get: (path) => call('GET', path), down: () => down };
}

/** The authority gave no usable answer: the caller's error, in words, naming where and what to do. */
function unavailable(url: string, method: string, path: string, why: string, cause?: unknown): DomainError {
  return new DomainError(
    'AUTHORITY_UNAVAILABLE',
    `The authority this agent resolves definitions from (${url}) ${why} to ${method} ${AUTHORITY_API_PATH}${path.split('?', 1)[0]!}. Nothing was decided for this request; retry in a few seconds. If it persists, the operator should check that authority (AUTHORITY_URL).`,
    cause === undefined ? undefined : { cause },
  );
}
