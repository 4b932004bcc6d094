/** The real @a2a-js/sdk client for e2e tests: built from the agent card, with a bearer token and the extension requested. */
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

/** `echoed()`: the A2A-Extensions header of the last response. */
export async function sdkClient(
  agentUrl: string,
  token: string,
): Promise<{ client: Client; opts: object; echoed: () => string | null }> {
  let echoed: string | null = null;
  const fetchImpl: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    echoed = res.headers.get('A2A-Extensions');
    return res;
  };
  const client = await new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl }), new RestTransportFactory({ fetchImpl })],
    }),
  ).createFromUrl(agentUrl);
  const opts = {
    serviceParameters: ServiceParameters.create(withA2AExtensions(EXTENSION_URI), (p) => {
      p['Authorization'] = `Bearer ${token}`;
    }),
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
