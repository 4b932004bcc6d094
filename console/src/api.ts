/**
 * The console's only way to the server: the public agent card, A2A JSON-RPC with the Learnables
 * extension activated (§7), and the authority API, all with the operator's own bearer token.
 *
 * Plain fetch rather than the @a2a-js/sdk client: the console renders wire JSON as it comes (open
 * strings, added fields kept), while the SDK turns it into protobuf-shaped objects that would have
 * to be turned back, and the SDK's client brings node-oriented transports the bundle does not need.
 * Deliberately not here: rendering, or reading any key of a lesson value (§9: opaque).
 */

/** The extension this console is a conformant client of. */
export const EXTENSION_URI = 'https://rsaxb.com/a2a/learnables/v1';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** A refusal or error from the server, in its own words. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: JsonObject | null,
  ) {
    super(message);
  }
}

export interface Api {
  card(): Promise<JsonObject>;
  rpc(method: string, params: JsonObject): Promise<JsonObject>;
  get(path: string): Promise<JsonObject>;
  post(path: string, body: JsonObject): Promise<JsonObject>;
}

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function createApi(base: string, token: string): Api {
  const auth = { Authorization: `Bearer ${token}` };
  let rpcUrl: string | null = null;
  let nextId = 1;

  async function json(res: Response): Promise<JsonObject> {
    const body: unknown = await res.json().catch(() => null);
    if (!res.ok) {
      const err = isObject(body) && isObject(body.error) ? body.error : {};
      throw new ApiError(
        res.status,
        typeof err.code === 'string' ? err.code : `HTTP_${res.status}`,
        typeof err.message === 'string' ? err.message : `The server answered ${res.status}.`,
        isObject(err.details) ? err.details : null,
      );
    }
    return isObject(body) ? body : {};
  }

  const api: Api = {
    async card() {
      return json(await fetch(`${base}/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } }));
    },
    async rpc(method, params) {
      if (rpcUrl === null) {
        const card = await api.card();
        const ifaces = Array.isArray(card.supportedInterfaces) ? card.supportedInterfaces : [];
        const jsonRpc = ifaces.find((i) => isObject(i) && i.protocolBinding === 'JSONRPC');
        // The card names the JSON-RPC endpoint by its public URL; the console keeps to its own origin.
        const url = isObject(jsonRpc) && typeof jsonRpc.url === 'string' ? new URL(jsonRpc.url) : null;
        rpcUrl = `${base}${url?.pathname ?? '/a2a/jsonrpc'}`;
      }
      const res = await fetch(rpcUrl, {
        method: 'POST',
        headers: {
          ...auth,
          'Content-Type': 'application/json',
          'A2A-Version': '1.0',
          'A2A-Extensions': EXTENSION_URI,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
      });
      const body = await json(res);
      if (isObject(body.error)) {
        const e = body.error;
        throw new ApiError(
          res.status,
          `JSONRPC_${typeof e.code === 'number' ? e.code : 'ERROR'}`,
          typeof e.message === 'string' ? e.message : 'The agent refused the call.',
          isObject(e.data) ? e.data : null,
        );
      }
      return isObject(body.result) ? body.result : {};
    },
    async get(path) {
      return json(await fetch(`${base}/authority/v1${path}`, { headers: auth }));
    },
    async post(path, body) {
      return json(
        await fetch(`${base}/authority/v1${path}`, {
          method: 'POST',
          headers: { ...auth, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        }),
      );
    },
  };
  return api;
}
