/**
 * The real @a2a-js/sdk client for tests: built from the agent card at `agentUrl`, with the bearer
 * token on every call, the Learnables extension requested or not, and the A2A-Extensions header of
 * the last response kept (the Client API does not expose response headers).
 */
import { randomUUID } from 'node:crypto';
import { SendMessageRequest, type Task } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  RestTransportFactory,
  ServiceParameters,
  withA2AExtensions,
  type Client,
} from '@a2a-js/sdk/client';
import { EXTENSION_URI } from '../../src/domain/extension.ts';

export interface SdkClient {
  readonly client: Client;
  /** The request options every call passes: the token and, when activating, the extension. */
  readonly opts: object;
  /** The A2A-Extensions response header of the last call, or null. */
  echoed(): string | null;
}

export async function sdkClient(
  agentUrl: string,
  token: string,
  options: {
    readonly activate?: boolean;
    readonly protocol?: 'JSONRPC' | 'HTTP+JSON';
    /** The fetch under the client (default: the global one). */
    readonly fetchImpl?: typeof fetch;
  } = {},
): Promise<SdkClient> {
  let echoed: string | null = null;
  const under = options.fetchImpl ?? fetch;
  const fetchImpl: typeof fetch = async (input, init) => {
    const res = await under(input, init);
    echoed = res.headers.get('A2A-Extensions');
    return res;
  };
  const client = await new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl }), new RestTransportFactory({ fetchImpl })],
      ...(options.protocol === undefined ? {} : { preferredTransports: [options.protocol] }),
    }),
  ).createFromUrl(agentUrl);
  const auth = (p: Record<string, string>): void => {
    p['Authorization'] = `Bearer ${token}`;
  };
  const opts = {
    serviceParameters:
      options.activate === false
        ? ServiceParameters.create(auth)
        : ServiceParameters.create(withA2AExtensions(EXTENSION_URI), auth),
  };
  return { client, opts, echoed: () => echoed };
}

/** SendMessage of a user message (wire JSON fields), expecting a task back. */
export function send(client: Client, opts: object, message: Record<string, unknown>): Promise<Task> {
  return client
    .sendMessage(
      SendMessageRequest.fromJSON({ message: { messageId: randomUUID(), role: 'ROLE_USER', ...message } }),
      opts,
    )
    .then((r) => {
      if (!('id' in r)) throw new Error('expected a task');
      return r;
    });
}
