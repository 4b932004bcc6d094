/**
 * A real HTTP receiver for push notifications and delivery webhooks (issue 40), on 127.0.0.1: it
 * records every POST (headers, body) and answers 204, or the status a test sets. It can be started
 * on a port chosen before it listens, so a server can be told its URL while it is down.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export interface Receiver {
  readonly port: number;
  readonly url: string;
  readonly received: Received[];
  /** The status answered from now on (default 204). */
  answer(status: number): void;
  /** Resolves with the first POST `match` accepts, among those received or to come. */
  waitFor(match: (r: Received) => boolean, timeoutMs?: number): Promise<Received>;
  listen(): Promise<void>;
  close(): Promise<void>;
}

/** A port nothing listens on now (bound, then released). */
export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

export async function startReceiver(port = 0, listen = true): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: { match: (r: Received) => boolean; resolve: (r: Received) => void }[] = [];
  let status = 204;
  let server: Server | null = null;
  let bound = port;
  const handle = (r: Received): void => {
    received.push(r);
    for (const w of [...waiters])
      if (w.match(r)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(r);
      }
  };
  const receiver: Receiver = {
    get port() {
      return bound;
    },
    get url() {
      return `http://127.0.0.1:${bound}`;
    },
    received,
    answer: (s) => {
      status = s;
    },
    waitFor(match, timeoutMs = 15_000) {
      const seen = received.find(match);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no matching delivery in ${timeoutMs} ms; received ${received.length}`)),
          timeoutMs,
        );
        waiters.push({
          match,
          resolve: (r) => {
            clearTimeout(timer);
            resolve(r);
          },
        });
      });
    },
    async listen() {
      const s = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          res.statusCode = status;
          res.end();
          if (status < 300)
            handle({
              path: req.url ?? '',
              headers: req.headers,
              body: Buffer.concat(chunks).toString('utf8'),
            });
        });
      });
      await new Promise<void>((r) => s.listen(bound, '127.0.0.1', r));
      bound = (s.address() as AddressInfo).port;
      server = s;
    },
    async close() {
      const s = server;
      server = null;
      if (s !== null)
        await new Promise<void>((r) => {
          s.close(() => r());
          s.closeAllConnections();
        });
    },
  };
  if (listen) await receiver.listen();
  return receiver;
}
