/**
 * What the soak's parts share: a server in a child process on a fresh data directory (restartable
 * on the same one, and killable), its resident memory and open file descriptors read from /proc,
 * and JSON-RPC calls over loopback. Loopback only; every data directory is removed at the end.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXTENSION_URI } from '../src/domain/extension.ts';
import { DEMO_TOKEN_FILE } from '../src/main.ts';
import { spawnListening, type ListeningChild } from '../test/support/listening-child.ts';

export interface SoakServer {
  readonly url: string;
  readonly token: string;
  readonly dataDir: string;
  readonly child: ListeningChild;
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `learnables-soak-${prefix}-`));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** `node --import tsx src/main.ts` on `dataDir` with `env`; the token is the first start's. */
export async function startServer(dataDir: string, env: Record<string, string> = {}): Promise<SoakServer> {
  const child = await spawnListening('src/main.ts', {
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ...env,
  });
  const token = readFileSync(join(dataDir, DEMO_TOKEN_FILE), 'utf8').trim();
  return { url: child.url, token, dataDir, child };
}

/** VmRSS of a process, bytes (Linux /proc). */
export function rssBytes(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m === null ? 0 : Number(m[1]) * 1024;
}

/** Open file descriptors of a process (Linux /proc). */
export function openFds(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

export const MiB = 1024 * 1024;
export const mib = (bytes: number): string => `${(bytes / MiB).toFixed(0)} MiB`;

export interface RpcAnswer {
  readonly status: number;
  readonly retryAfter: string | null;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- wire JSON, read loosely
  readonly body: any;
}

/** The headers of a JSON-RPC call with `token`, the extension activated. */
export function rpcHeaders(token: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'a2a-version': '1.0',
    'a2a-extensions': EXTENSION_URI,
    authorization: `Bearer ${token}`,
  };
}

/** `--name=N` from the command line, or `dflt`. */
export function numberArg(name: string, dflt: number): number {
  const a = process.argv.find((x) => x.startsWith(`--${name}=`));
  return a === undefined ? dflt : Number(a.split('=')[1]);
}

export async function rpc(
  server: Pick<SoakServer, 'url' | 'token'>,
  method: string,
  params: unknown,
  extraHeaders: Record<string, string> = {},
): Promise<RpcAnswer> {
  const res = await fetch(`${server.url}/a2a/jsonrpc`, {
    method: 'POST',
    headers: { ...rpcHeaders(server.token), ...extraHeaders },
    body: JSON.stringify({ jsonrpc: '2.0', id: randomUUID(), method, params }),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: kept as text for the report
  }
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body };
}

/** A message/rfc822 file part of `mail`. */
export function mailPart(mail: string | Buffer): Record<string, unknown> {
  return {
    raw: Buffer.from(mail).toString('base64'),
    mediaType: 'message/rfc822',
    filename: 'mail.eml',
  };
}

export function sendParams(parts: readonly Record<string, unknown>[], taskId?: string): unknown {
  return {
    message: {
      messageId: randomUUID(),
      role: 'ROLE_USER',
      parts,
      ...(taskId === undefined ? {} : { taskId }),
    },
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
