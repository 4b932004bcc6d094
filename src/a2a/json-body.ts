/**
 * The A2A request body, read once for JSON-RPC and REST, bounded before anything parses it, and the
 * admission gate (src/admission) in front of it. Every refusal is in the transport's own shape:
 * a JSON-RPC error object on /a2a/jsonrpc (the SDK's convention: HTTP 200 for a caller's mistake),
 * the SDK's REST error body (`{error: {code, status, message, details}}`) on /a2a/rest.
 *
 * In order: a body over the limit is refused by its Content-Length before it is received; its bytes
 * are reserved in the gate (when the budget is spent, the body is received and dropped, then
 * answered 503 + Retry-After: never a reset); it is read up to the limit;
 * a body nested deeper than maxJsonDepth is refused before JSON.parse; a body that does not parse is
 * a parse error (-32700); a JSON-RPC body that is not an object is an invalid request (-32600). A
 * request that sends a message then takes a message slot, waiting up to ADMISSION_QUEUE_MS for one
 * (503 + Retry-After when none came free).
 * Permits are released when the response closes, however it ends.
 *
 * Does not: authenticate (the bearer check runs before, so no stranger's bytes are held), or check
 * the Content-Type (the SDK's guards answer that; a body of another type is left unread).
 */
import type { Request, RequestHandler, Response } from 'express';
import type { Admission } from '../admission/admission.ts';
import { drained, holdBodyBytes, permitsOf, setRetryAfter } from '../admission/hold.ts';
import { EXTENSION_URI } from '../domain/extension.ts';
import { jsonDeeperThan } from '../domain/json-depth.ts';
import { JSON_RPC_CODE } from './errors.ts';

export type BodyTransport = 'jsonrpc' | 'rest';

export interface JsonBodyOptions {
  readonly transport: BodyTransport;
  /** Largest body read, bytes (a message of MAX_MESSAGE_BYTES base64-encoded in its envelope). */
  readonly limitBytes: number;
  /** Deepest JSON nesting read (MAX_JSON_DEPTH). */
  readonly maxDepth: number;
  /** The process's gate; none: nothing is bounded but the body limit. */
  readonly admission?: Admission;
}

/** JSON-RPC methods (v1.0 and v0.3 names) whose request carries a message the agent reads. */
const MESSAGE_METHODS = new Set(['SendMessage', 'SendStreamingMessage', 'message/send', 'message/stream']);
/** REST paths whose request carries a message the agent reads. */
const MESSAGE_PATH = /message:(?:send|stream)$/;

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

interface Refusal {
  readonly httpStatus: number;
  readonly jsonRpcCode: number;
  readonly reason: string;
  readonly message: string;
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/;

export function boundedJsonBody(options: JsonBodyOptions): RequestHandler {
  const { transport, limitBytes, maxDepth, admission } = options;
  const refuse = (res: Response, id: unknown, r: Refusal): void => {
    if (res.headersSent) return;
    if (r.httpStatus === 503 && admission !== undefined) setRetryAfter(res, admission);
    if (transport === 'jsonrpc') {
      res.status(r.httpStatus === 503 ? 503 : 200).json({
        jsonrpc: '2.0',
        id: validId(id),
        error: { code: r.jsonRpcCode, message: r.message, data: [errorInfo(r.reason)] },
      });
    } else {
      res.status(r.httpStatus).json({
        error: {
          code: r.httpStatus,
          status: REST_STATUS[r.httpStatus] ?? 'INVALID_ARGUMENT',
          message: r.message,
          details: [errorInfo(r.reason)],
        },
      });
    }
  };
  const busy = (): Refusal => ({
    httpStatus: 503,
    jsonRpcCode: JSON_RPC_CODE.SERVER_BUSY,
    reason: 'SERVER_BUSY',
    message: admission!.busySentence(),
  });
  const tooLarge = (seen: string): Refusal => ({
    httpStatus: 413,
    jsonRpcCode: INVALID_REQUEST,
    reason: 'REQUEST_TOO_LARGE',
    message:
      `The request body is ${seen}; this server reads request bodies of at most ${formatNumber(limitBytes)} bytes ` +
      '(a message of MAX_MESSAGE_BYTES, base64-encoded, in its JSON envelope). Send a smaller message, or ask the operator to raise MAX_MESSAGE_BYTES.',
  });

  return (req, res, next) => {
    const type = (req.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
    if (req.method !== 'POST' || (type !== '' && !JSON_TYPE.test(type))) {
      next(); // nothing to read here, or the SDK's content-type guard answers
      return;
    }
    const declared = Number(req.headers['content-length']);
    const known = req.headers['content-length'] !== undefined && Number.isSafeInteger(declared);
    if (known && declared > limitBytes) {
      refuse(res, null, tooLarge(`${formatNumber(declared)} bytes`));
      req.resume();
      return;
    }
    if (admission !== undefined && !holdBodyBytes(admission, req, res, limitBytes)) {
      void drained(req).then(() => refuse(res, null, busy()));
      return;
    }
    readLimited(req, limitBytes, known && declared >= 0 ? declared : null).then(
      (body) => {
        if (body === 'too-large') {
          res.setHeader('Connection', 'close');
          refuse(res, null, tooLarge(`over ${formatNumber(limitBytes)} bytes`));
          return;
        }
        if (body.length === 0) {
          req.body = {};
          next();
          return;
        }
        if (jsonDeeperThan(body, maxDepth)) {
          refuse(res, null, {
            httpStatus: 400,
            jsonRpcCode: INVALID_REQUEST,
            reason: 'REQUEST_MALFORMED',
            message: `The request body nests JSON more than ${maxDepth} levels deep; this server reads at most ${maxDepth} (MAX_JSON_DEPTH). Send the message as a file part (message/rfc822) or as a flat data part {"from", "subject", "body"}.`,
          });
          return;
        }
        let parsed: unknown;
        try {
          parsed = JSON.parse(body.toString('utf8'));
        } catch (e) {
          refuse(res, null, {
            httpStatus: 400,
            jsonRpcCode: PARSE_ERROR,
            reason: 'REQUEST_MALFORMED',
            message: `The request body is not valid JSON (${(e as Error).message}); it may have been cut off. Send the whole ${transport === 'jsonrpc' ? 'JSON-RPC request' : 'JSON body'} with Content-Type: application/json.`,
          });
          return;
        }
        const isObject = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
        if (transport === 'jsonrpc' && !isObject) {
          refuse(res, null, {
            httpStatus: 400,
            jsonRpcCode: INVALID_REQUEST,
            reason: 'REQUEST_MALFORMED',
            message: `A JSON-RPC request is one object {"jsonrpc": "2.0", "id": …, "method": …, "params": {…}}; this body is ${describeJson(parsed)}. Send one request object per call.`,
          });
          return;
        }
        req.body = parsed;
        if (admission === undefined || !sendsMessage(transport, req, parsed)) {
          next();
          return;
        }
        // a burst waits up to ADMISSION_QUEUE_MS for a slot; a sustained overload is told to retry
        void admission.admitWithin({ bytes: 0, message: true }, admission.limits.queueMs).then((slot) => {
          if (slot === null) {
            refuse(res, isObject ? (parsed as { id?: unknown }).id : null, busy());
            return;
          }
          if (res.destroyed) {
            slot.release(); // the caller left while it waited
            return;
          }
          permitsOf(res).hold(slot);
          next();
        });
      },
      (e: unknown) => {
        // the caller went away mid-body, or the stream broke: nothing to answer to
        res.destroy(e instanceof Error ? e : undefined);
      },
    );
  };
}

/** 1234567 → "1,234,567" (the house's way of writing a limit). */
const formatNumber = (n: number): string => n.toLocaleString('en-US');

function sendsMessage(transport: BodyTransport, req: Request, parsed: unknown): boolean {
  if (transport === 'rest') return MESSAGE_PATH.test(req.path);
  const method = (parsed as { method?: unknown }).method;
  return typeof method === 'string' && MESSAGE_METHODS.has(method);
}

/**
 * The body's bytes, or 'too-large' as soon as it passes `limit` (the rest is not kept). With a
 * declared length the bytes go straight into one buffer of that size: a 35 MB body is held once,
 * not as chunks and then their concatenation.
 */
function readLimited(req: Request, limit: number, declared: number | null): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const into = declared === null ? null : Buffer.allocUnsafe(declared);
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      if (over) return;
      const end = size + chunk.length;
      if (end > limit || (into !== null && end > into.length)) {
        // past the limit, or past its own Content-Length (Node refuses that first; kept for safety)
        over = true;
        chunks.length = 0;
        resolve('too-large');
        return;
      }
      if (into !== null) chunk.copy(into, size);
      else chunks.push(chunk);
      size = end;
    });
    req.once('end', () => {
      if (over) return;
      resolve(into !== null ? into.subarray(0, size) : Buffer.concat(chunks, size));
    });
    req.once('error', reject);
    req.once('aborted', () => reject(new Error('request aborted')));
  });
}

function validId(id: unknown): string | number | null {
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

function describeJson(v: unknown): string {
  if (Array.isArray(v)) return `an array of ${v.length} (batches are not served)`;
  if (v === null) return 'null';
  const shown = JSON.stringify(v);
  return `a ${typeof v} (${shown.length > 40 ? `${shown.slice(0, 40)}…` : shown})`;
}

const REST_STATUS: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  413: 'INVALID_ARGUMENT',
  503: 'UNAVAILABLE',
};

function errorInfo(reason: string): Record<string, unknown> {
  return { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: EXTENSION_URI };
}
