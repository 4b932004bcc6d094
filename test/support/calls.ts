/**
 * Test helper: the calls integration tests make to a running server (the authority API, A2A
 * JSON-RPC) and to the CLI, written once. Answers are the wire JSON, untyped.
 */
import { runCli } from '../../src/cli/main.ts';
import { EXTENSION_URI } from '../../src/domain/extension.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the wire JSON, as tests read it
export type Wire = any;

/** One call to `/authority/v1` with a bearer token. */
export async function authorityCall(
  url: string,
  token: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Wire }> {
  const res = await fetch(`${url}/authority/v1${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: await res.json() };
}

/** One A2A JSON-RPC call, the Learnables extension activated (§7); the JSON-RPC response. */
export async function jsonRpc(url: string, token: string, method: string, params: unknown): Promise<Wire> {
  const res = await fetch(`${url}/a2a/jsonrpc`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'a2a-version': '1.0',
      'a2a-extensions': EXTENSION_URI,
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return res.json();
}

/** Runs the CLI in-process with `argv` (and `env`, e.g. DATABASE_URL), capturing what it prints and its exit code. */
export async function cliRun(
  argv: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, {
    out: (l) => (out += `${l}\n`),
    err: (l) => (err += `${l}\n`),
    env,
  });
  return { code, out, err };
}
