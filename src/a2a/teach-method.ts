/**
 * §12.2 the self-owning profile: `rsaxb.learnables.Teach` on the JSON-RPC endpoint. It takes a
 * Lesson (§9) and returns the LessonResult (§10.4) from the same authority.absorb every other path
 * uses, so every §10 rule holds (the learnable judges, idempotence, a new immutable version, undo).
 *
 * The SDK's JSON-RPC handler has a fixed method switch, so this is an express router mounted in
 * front of it on the same path: it answers its own method and passes every other call on.
 * Refused without activation (ExtensionSupportRequiredError, §12.2 "MUST NOT call it without having
 * activated"); needs a token with the teach role (§13.2: activation is not authorization).
 */
import express, { type Router } from 'express';
import { A2A_VERSION_HEADER, Extensions, HTTP_EXTENSION_HEADER, type AgentCard } from '@a2a-js/sdk';
import { ExtensionSupportRequiredError } from '@a2a-js/sdk/errors';
import { validateVersion, type ServerCallContextBuilder } from '@a2a-js/sdk/server';
import type { UserBuilder } from '@a2a-js/sdk/server/express';
import { hasRole } from '../domain/authority/index.ts';
import type { Lesson } from '../domain/authority/index.ts';
import { DomainError } from '../domain/errors.ts';
import { EXTENSION_URI, namesLearnables, TEACH_METHOD } from '../domain/extension.ts';
import { isPlainObject } from '../domain/json.ts';
import { toJsonRpcError } from './errors.ts';
import type { LessonSink } from './ports.ts';
import { principalOfContext } from './user.ts';

export interface TeachMethodOptions {
  /** The authority this agent owns; null when definitions live elsewhere (then the method does not exist). */
  readonly sink: LessonSink | null;
  readonly card: AgentCard;
  readonly userBuilder: UserBuilder;
  readonly contextBuilder: ServerCallContextBuilder;
  readonly log: (message: string, cause: unknown) => void;
}

export function teachMethodRouter(options: TeachMethodOptions): Router {
  const router = express.Router();
  const sink = options.sink;
  if (sink === null) return router; // not self-owning: the SDK answers "method not found"
  router.post('/', express.json({ limit: '1mb' }), async (req, res, next) => {
    const body: unknown = req.body;
    if (!isPlainObject(body) || body.method !== TEACH_METHOD) {
      next();
      return;
    }
    const id = typeof body.id === 'string' || typeof body.id === 'number' ? body.id : null;
    try {
      const context = options.contextBuilder({
        extensions: Extensions.parseServiceParameter(req.header(HTTP_EXTENSION_HEADER)),
        user: await options.userBuilder(req),
        headers: req.headers,
        requestedVersion: req.header(A2A_VERSION_HEADER) || undefined,
      });
      validateVersion(context.requestedVersion, options.card, 'JSONRPC');
      if (!namesLearnables(context.requestedExtensions)) {
        throw new ExtensionSupportRequiredError(
          `${TEACH_METHOD} is part of the Learnables extension: send the header "${HTTP_EXTENSION_HEADER}: ${EXTENSION_URI}" (§12.2).`,
        );
      }
      res.setHeader(HTTP_EXTENSION_HEADER, EXTENSION_URI); // §7 echo
      const principal = principalOfContext(context);
      if (!hasRole(principal, 'teach')) {
        throw new DomainError(
          'FORBIDDEN',
          `The token for ${principal.id} does not have the "teach" role ${TEACH_METHOD} needs. Ask an operator for a token with "teach".`,
          { details: { required: 'teach' } },
        );
      }
      if (!isPlainObject(body.params)) {
        throw new DomainError(
          'LESSON_MALFORMED',
          `${TEACH_METHOD} takes a Lesson as its params: {"collection", "entry", "value": {…}, "taughtBy", "reason"?} (§9).`,
        );
      }
      // §9: the lesson goes to the authority as sent; only the learnable reads its value.
      const result = await sink.absorb(principal.tenant, principal, body.params as unknown as Lesson);
      res.json({ jsonrpc: '2.0', id, result });
    } catch (e) {
      res.json({ jsonrpc: '2.0', id, error: toJsonRpcError(e, options.log) });
    }
  });
  return router;
}
