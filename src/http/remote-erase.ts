/**
 * §14 in the split topology (§12.1): an erase posted to the agent's /authority/v1/erase. The agent
 * keeps copies the authority never sees (the corpus of messages it read, its tasks' history,
 * status messages and artifacts, its ingest ledger, its regex memo and compiled matchers, the
 * definitions it fetched), so an erase must reach both data directories. It is forwarded to the
 * authority with the caller's own token (the authority authorizes it and checks its writer,
 * §13.2), and only once the authority has erased does the agent run its own erasers. The answer
 * is the authority's, with every store of both processes, each named with its process.
 *
 * Erasing twice is harmless, so a failure after the authority's erase is mended by posting again.
 *
 * Does not own: the authority's erase (domain/authority/erase.ts) or any store's (each Eraser).
 * Does not reach: another agent against the same authority (post the erase to each agent).
 */
import {
  checkEraseIdentifier,
  runErasers,
  type Eraser,
  type EraseResult,
} from '../domain/authority/index.ts';
import { callerBearer } from './remote-errors.ts';
import { isPlainObject } from '../domain/json.ts';
import type { RemoteDefinitionSource } from './remote-authority.ts';

/** The agent-side erase: the caller's Authorization header and the request body. */
export type ForwardedErase = (authorization: string | undefined, body: unknown) => Promise<EraseResult>;

export function createForwardedErase(deps: {
  readonly remote: Pick<RemoteDefinitionSource, 'erase' | 'tenant'>;
  /** This agent's own erasers, in order (the last folds the WAL in). */
  readonly erasers: readonly Eraser[];
}): ForwardedErase {
  return async (authorization, body) => {
    const bearer = callerBearer(
      authorization,
      "An erase needs the authority's admin token: send Authorization: Bearer <token> (the token lessons are posted to the authority with).",
    );
    const result = await deps.remote.erase(bearer, body);
    // The authority took it, so the identifier is one it accepted (trimmed the same way).
    const identifier = checkEraseIdentifier(isPlainObject(body) ? body.identifier : undefined);
    const local = await runErasers(deps.erasers, deps.remote.tenant, identifier);
    return {
      ...result,
      stores: [
        ...result.stores.map((s) => ({ ...s, store: `authority: ${s.store}` })),
        ...local.map((s) => ({ ...s, store: `agent: ${s.store}` })),
      ],
    };
  };
}

/** §14: the definitions and handles this agent fetched from the authority, forgotten. */
export function remoteCacheEraser(remote: Pick<RemoteDefinitionSource, 'forget'>): Eraser {
  return {
    erase: () =>
      Promise.resolve([
        { store: 'definitions and handles fetched from the authority', changed: remote.forget() },
      ]),
  };
}
