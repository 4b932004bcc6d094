/**
 * Reading the wire in the fault proxy (fault-proxy.ts): which call an exchange is, and where in its
 * answer the parts a fault edits are. Shared by the faults of faults-*.ts.
 */
import type { Wire } from '../support/calls.ts';
import type { Exchange } from './fault-proxy.ts';

export const CARD_PATH = '/.well-known/agent-card.json';
const TEACH_METHOD = 'rsaxb.learnables.Teach';

/** The JSON-RPC method of a call, or undefined. */
export function rpcMethod(x: Exchange): string | undefined {
  const m: unknown = x.request?.method;
  return typeof m === 'string' ? m : undefined;
}

/** A SendMessage (JSON-RPC or REST, A2A 1.0 or 0.3's message/send) and the message it carries. */
export function sentMessage(x: Exchange): Wire {
  if (rpcMethod(x) === 'SendMessage' || rpcMethod(x) === 'message/send') return x.request.params?.message;
  if (x.path.endsWith('/message:send')) return x.request?.message;
  return undefined;
}

/** Whether a SendMessage's text holds `marker` (the kit's input ids name the check: `-plain-`, `-echo-`). */
export function sendHolds(x: Exchange, marker: string): boolean {
  return JSON.stringify(sentMessage(x) ?? null).includes(marker);
}

/** The lesson a call writes (the authority API or the Teach method), or undefined. */
export function lessonOf(x: Exchange): Wire {
  if (x.method === 'POST' && x.path.endsWith('/authority/v1/lessons')) return x.request;
  if (rpcMethod(x) === TEACH_METHOD) return x.request.params;
  return undefined;
}

/** The LessonResult in the answer to a lesson, or undefined (a refusal, or not a lesson). */
export function lessonResult(body: Wire, x: Exchange): Wire {
  if (lessonOf(x) === undefined || body === null || typeof body !== 'object') return undefined;
  const result: Wire = rpcMethod(x) === TEACH_METHOD ? body.result : body;
  return typeof result?.learned === 'boolean' ? result : undefined;
}

/** The extension's declaration on a card. */
export function declaration(card: Wire, uri: string): Wire {
  return (card?.capabilities?.extensions ?? []).find((e: Wire) => e?.uri === uri);
}

/** Every object in `value`, depth first. */
export function* objects(value: unknown): Generator<Record<string, unknown>> {
  if (value === null || typeof value !== 'object') return;
  if (!Array.isArray(value)) yield value as Record<string, unknown>;
  for (const inner of Object.values(value)) yield* objects(inner);
}

/** Takes the §7 echo out of a response, in both spellings (A2A 0.3's is X-A2A-Extensions). */
export function dropEcho(headers: Headers): void {
  headers.delete('a2a-extensions');
  headers.delete('x-a2a-extensions');
}

/** The bearer token a call carries, or undefined. */
export function tokenOf(x: Exchange): string | undefined {
  return x.authorization?.replace(/^Bearer /, '');
}
