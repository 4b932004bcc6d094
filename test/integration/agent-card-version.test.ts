// Invariant (issue 18, A2A v1.0 §3.6, §8.2): a GET of the well-known card without A2A-Version gets
// the v1.0 card (what the v1.0 conformance suite's CARD-STRUCT-001 and a v1.0 client expect); a
// v0.3 client still gets the v0.3 card by asking for it (header or query) or at the pre-1.0 path,
// and every answer says it varies by A2A-Version.
/* eslint-disable @typescript-eslint/no-unsafe-return -- wire JSON is read loosely; the assertions check its shape */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Wire } from '../support/calls.ts';
import { startInProcess, type Host } from '../e2e/host.ts';
import { EXTENSION_URI } from '../../src/domain/extension.ts';

let host: Host;
beforeAll(async () => {
  host = await startInProcess();
});
afterAll(() => host.close());

async function card(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ res: Response; body: Wire }> {
  const res = await fetch(`${host.url}${path}`, { headers });
  return { res, body: await res.json() };
}

function expectV1(body: Wire): void {
  for (const field of [
    'name',
    'description',
    'version',
    'supportedInterfaces',
    'capabilities',
    'defaultInputModes',
    'defaultOutputModes',
    'skills',
  ])
    expect(body, field).toHaveProperty(field);
  expect(body).not.toHaveProperty('protocolVersion');
  expect(body).not.toHaveProperty('url');
  expect(body.supportedInterfaces[0]).toMatchObject({ protocolBinding: 'JSONRPC', protocolVersion: '1.0' });
  // The v0.3 interfaces stay declared on the v1.0 card (§8.3.1: every supported combination).
  expect(body.supportedInterfaces.map((i: Wire) => i.protocolVersion)).toContain('0.3');
  expect(body.capabilities.extensions[0].uri).toBe(EXTENSION_URI);
}

function expectV03(body: Wire): void {
  expect(body.protocolVersion).toBe('0.3');
  expect(body.url).toBe(`${host.url}/a2a/jsonrpc`);
  expect(body.capabilities.extensions[0].uri).toBe(EXTENSION_URI);
}

describe('which agent card a GET gets', () => {
  it('gives the v1.0 card to a GET without A2A-Version, as the README curl sends it', async () => {
    const { res, body } = await card('/.well-known/agent-card.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('vary')).toMatch(/A2A-Version/i);
    expectV1(body);
    expect(body.capabilities.extensions[0].params.learnables[0].collection).toBe('customers');
  });

  it('gives the same v1.0 card to A2A-Version: 1.0', async () => {
    const plain = await card('/.well-known/agent-card.json');
    const asked = await card('/.well-known/agent-card.json', { 'A2A-Version': '1.0' });
    expect(asked.body).toEqual(plain.body);
  });

  it('keeps v0.3 clients working: A2A-Version: 0.3, ?A2A-Version=0.3, or the pre-1.0 path', async () => {
    for (const [path, headers] of [
      ['/.well-known/agent-card.json', { 'A2A-Version': '0.3' }],
      ['/.well-known/agent-card.json?A2A-Version=0.3', {}],
      ['/.well-known/agent.json', {}],
    ] as const) {
      const { res, body } = await card(path, headers);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('vary')).toMatch(/A2A-Version/i);
      expectV03(body);
    }
  });

  it('still serves a header-less JSON-RPC call as v0.3 (§3.6.2: an empty version is 0.3)', async () => {
    const res = await fetch(`${host.url}/a2a/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${host.token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: 'no-such-task' } }),
    });
    const body = (await res.json()) as Wire;
    expect(body.error.code).toBe(-32001); // v0.3 TaskNotFound: understood as a v0.3 method
  });
});
