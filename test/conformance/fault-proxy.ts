/**
 * A deliberately broken build of this server, for the conformance kit's own tests (issue 30): an
 * HTTP proxy on 127.0.0.1:0 in front of a real server, which makes the wire say what a build with
 * one fault would say. The switches live only here, never in the product's configuration. With no
 * fault it passes every byte through (streams included), so the kit's verdict on the proxy alone
 * is its verdict on the server.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { EXTENSION_URI } from '../../src/domain/extension.ts';
import type { Wire } from '../support/calls.ts';

/** What the proxy sees of one call on its way back. */
export interface Exchange {
  readonly method: string;
  readonly path: string;
  /** The request body, parsed (undefined when it was not JSON). */
  readonly request: Wire;
  /** Whether the client activated the extension (§7). */
  readonly activated: boolean;
  readonly authorization: string | undefined;
}

export interface Fault {
  /** An answer given without asking the server (a build that does nothing for this call); undefined: ask it. */
  answer?(exchange: Exchange): { readonly status: number; readonly body: unknown } | undefined;
  /** The JSON body to send upstream in place of the client's (undefined: the client's, unchanged). */
  request?(body: Wire, exchange: Exchange): unknown;
  /** Headers to send upstream in place of the client's. */
  requestHeaders?(headers: Headers, exchange: Exchange): void;
  /** Response headers to answer with in place of the server's. */
  responseHeaders?(headers: Headers, exchange: Exchange): void;
  /** The JSON body to answer with in place of the server's (streams pass untouched). */
  response?(body: unknown, exchange: Exchange, upstream: string): unknown;
}

export interface FaultProxy {
  readonly url: string;
  close(): Promise<void>;
}

export async function startFaultProxy(upstream: string, fault: Fault = {}): Promise<FaultProxy> {
  let self = '';
  const server: Server = createServer((req, res) => {
    forward(upstream, self, fault, req, res).catch((e: unknown) => {
      res.statusCode = 502;
      res.end(String(e));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  self = `http://127.0.0.1:${port}`;
  return {
    url: self,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const HOP = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'content-encoding',
]);

/** One call: the card's interface URLs name the proxy (so the client stays on it); a fault edits the rest. */
async function forward(
  upstream: string,
  self: string,
  fault: Fault,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const raw = Buffer.concat(chunks);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers))
    if (!HOP.has(k) && typeof v === 'string') headers.set(k, v);
  const exchange: Exchange = {
    method: req.method ?? 'GET',
    path: req.url ?? '/',
    request: parse(raw.toString('utf8')),
    activated: [req.headers['a2a-extensions'], req.headers['x-a2a-extensions']]
      .flat()
      .join(',')
      .includes(EXTENSION_URI),
    authorization: req.headers.authorization,
  };
  const own = fault.answer?.(exchange);
  if (own !== undefined) {
    res.writeHead(own.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(own.body));
    return;
  }
  fault.requestHeaders?.(headers, exchange);
  const edited = fault.request?.(exchange.request, exchange);
  const sent = edited === undefined ? raw : Buffer.from(JSON.stringify(edited));
  const gone = new AbortController(); // the client left (a stream it stopped reading): so does the proxy
  res.on('close', () => gone.abort());
  const answer = await fetch(new URL(exchange.path, upstream), {
    method: exchange.method,
    headers,
    signal: gone.signal,
    ...(sent.length > 0 ? { body: sent } : {}),
  });
  const back = new Headers();
  answer.headers.forEach((v, k) => {
    if (!HOP.has(k)) back.set(k, v);
  });
  fault.responseHeaders?.(back, exchange);
  const streamed = (answer.headers.get('content-type') ?? '').includes('text/event-stream');
  if (streamed) {
    res.writeHead(answer.status, Object.fromEntries(back));
    if (answer.body === null) res.end();
    else
      Readable.fromWeb(answer.body as never)
        .on('error', () => res.destroy())
        .pipe(res);
    return;
  }
  const text = (await answer.text()).replaceAll(upstream, self);
  const body = fault.response === undefined ? text : await fault.response(parse(text), exchange, upstream);
  const out = typeof body === 'string' ? body : JSON.stringify(body);
  back.set('content-length', String(Buffer.byteLength(out)));
  res.writeHead(answer.status, Object.fromEntries(back));
  res.end(out);
}

function parse(text: string): Wire {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
