/**
 * The HTTP side of the admission gate: reserve a request's body bytes before it is received, and
 * release every permit a request took when its response closes (finished, failed or cut off).
 * Owns only that bookkeeping; each transport answers a refusal in its own shape (a2a/json-body.ts,
 * the webhook router) with `Retry-After: limits.retryAfterSeconds`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Admission, Permit } from './admission.ts';

/** Permits held by one request, released together when its response closes. */
export function permitsOf(res: ServerResponse): { hold(p: Permit): void } {
  const held: Permit[] = [];
  res.once('close', () => held.forEach((p) => p.release()));
  return { hold: (p) => void held.push(p) };
}

/**
 * Reserves the body's bytes: its Content-Length, or `limitBytes` when the length is not declared
 * (chunked: it may be that large). False when the budget is spent: the caller answers 503 and
 * drains nothing it has not been sent.
 */
export function holdBodyBytes(
  admission: Admission,
  req: IncomingMessage,
  res: ServerResponse,
  limitBytes: number,
): boolean {
  const declared = Number(req.headers['content-length']);
  const bytes = Number.isSafeInteger(declared) && declared >= 0 ? Math.min(declared, limitBytes) : limitBytes;
  const permit = admission.tryAdmit({ bytes, message: false });
  if (permit === null) return false;
  permitsOf(res).hold(permit);
  return true;
}

/** Sets the Retry-After header a refused caller reads (the body is the transport's). */
export function setRetryAfter(res: ServerResponse, admission: Admission): void {
  res.setHeader('Retry-After', String(admission.limits.retryAfterSeconds));
}
