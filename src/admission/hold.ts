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
 * (chunked: it may be that large). False when the budget is spent: the caller drains the body
 * (`drained`), then answers 503.
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

/**
 * Resolves once the request's body has been received and thrown away (or the caller left), so a
 * refusal is answered to a caller that has finished sending. Answering while it still sends is what
 * reset connections under a burst of large mail: the answered socket goes idle for the
 * server while the client writes, and a 5 s keep-alive timeout or a closing client cuts it, and the
 * caller reads EPIPE, not 503. Nothing is held: each chunk is dropped as it arrives.
 */
export function drained(req: IncomingMessage): Promise<void> {
  if (req.complete || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      req.off('end', done);
      req.off('close', done);
      req.off('error', done);
      resolve();
    };
    req.once('end', done);
    req.once('close', done);
    req.once('error', done);
    req.resume();
  });
}
