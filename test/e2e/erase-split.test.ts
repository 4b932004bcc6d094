// Invariant (§14, §12.1): with the authority and the agent in separate processes, an erase posted the way the README says (to the agent's /authority/v1/erase, with the authority's admin token) is done by the authority and then reaches every store of the agent: after both stop, the identifier is in no file of EITHER data directory (WAL included), plain or base64; the answer names every store of both processes with its count; and a token the authority does not accept erases nothing.
/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON is read loosely; the assertions check its shape */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskState } from '@a2a-js/sdk';
import { sdkClient, send } from '../support/sdk-client.ts';
import { eml as emlOf, hitsIn, sendByEveryPart, signedMailgunForm } from '../support/data-grep.ts';
import { waitFor } from '../support/ingest.ts';
import { startChild, tempDataDir, type ChildHost } from './host.ts';

const ID = 'billing@origin.example';
const INBOUND = 'e2e-inbound-token-split-5e2a';
const MG_KEY = 'key-split-e2e-9c3d7e';
const eml = (n: number): string => emlOf(n, ID);

const authorityData = tempDataDir();
const agentData = tempDataDir();
let authority: ChildHost;
let agent: ChildHost;
let stopped = false;

beforeAll(async () => {
  // DATA_DIR named here, so each directory outlives its process and can be searched after the stop.
  authority = await startChild({ ROLE: 'authority', DATA_DIR: authorityData.dir });
  agent = await startChild({
    DATA_DIR: agentData.dir,
    AUTHORITY_URL: authority.url,
    AUTHORITY_TOKEN: authority.token!,
    INBOUND_WEBHOOKS: JSON.stringify([
      { tenant: 'demo', tokenEnv: 'E2E_INBOUND_TOKEN', mailgunSigningKeyEnv: 'E2E_MG_KEY' },
    ]),
    E2E_INBOUND_TOKEN: INBOUND,
    E2E_MG_KEY: MG_KEY,
  });
}, 60_000);
afterAll(async () => {
  if (!stopped) await Promise.all([agent?.close(), authority?.close()]);
  authorityData.remove();
  agentData.remove();
});

async function post(
  url: string,
  token: string,
  path: string,
  body: unknown,
): Promise<{ status: number; json: any }> {
  const res = await fetch(`${url}/authority/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

async function inbound(provider: string, body: string, contentType: string): Promise<void> {
  const res = await fetch(`${agent.url}/inbound/v1/${provider}/${INBOUND}`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body,
  });
  expect(res.status, `${provider}: ${await res.text()}`).toBe(200);
}

describe('erase in the split topology (§14, §12.1)', () => {
  it('refuses an erase with the agent’s own token, saying to send the authority’s, and erases nothing', async () => {
    const r = await post(agent.url, agent.token!, '/erase', {
      identifier: 'nobody@origin.example',
      taughtBy: 'sam@warehouse.example',
    });
    expect(r.status).toBe(401);
    expect(r.json.error.code).toBe('UNAUTHENTICATED');
    expect(r.json.error.message).toMatch(/send the authority's admin token/);
  });

  it('leaves the identifier in no file of either data directory, and reports every store of both processes', async () => {
    const { client, opts } = await sdkClient(agent.url, agent.token!);
    // At the agent: A2A file, text and data parts, and two inbound webhooks.
    const byFile = await sendByEveryPart(client, opts, ID, eml);
    await inbound('rfc822', eml(4), 'message/rfc822');
    await inbound('mailgun', signedMailgunForm(eml(5), MG_KEY), 'application/x-www-form-urlencoded');

    // At the authority: a lesson naming it, with a reason naming it.
    const taught = await post(authority.url, authority.token!, '/lessons', {
      collection: 'customers',
      entry: 'northgate',
      value: { pattern: 'billing@origin\\.example', where: 'from' },
      taughtBy: 'sam@warehouse.example',
      reason: `${ID} sends the pre-alerts`,
    });
    expect(taught.status).toBe(200);
    // Show-back at the agent under the authority's new version: an artifact naming the sender.
    await waitFor('the agent to read under the new version', async () => {
      const shown = await send(client, opts, { parts: [{ data: { recheck: { taskId: byFile.id } } }] });
      return (
        shown.status?.state === TaskState.TASK_STATE_COMPLETED && JSON.stringify(shown.artifacts).includes(ID)
      );
    });
    expect(hitsIn(agentData.dir, ID).length).toBeGreaterThan(0);
    expect(hitsIn(authorityData.dir, ID).length).toBeGreaterThan(0);

    // As the README says: to the agent, with the authority's admin token.
    const erased = await post(agent.url, authority.token!, '/erase', {
      identifier: ID,
      taughtBy: 'sam@warehouse.example',
      reason: `erasure request from ${ID}`,
    });
    expect(erased.status, JSON.stringify(erased.json)).toBe(200);
    const changed = new Map(
      (erased.json.stores as { store: string; changed: number }[]).map((s) => [s.store, s.changed]),
    );
    expect(changed.get('authority: definition versions tombstoned')).toBeGreaterThanOrEqual(1);
    expect(changed.get('agent: corpus messages')).toBeGreaterThanOrEqual(5);
    expect(changed.get('agent: tasks (history, status messages, artifacts)')).toBeGreaterThanOrEqual(6);
    expect(changed.get('agent: task message parts whose bytes were dropped')).toBeGreaterThanOrEqual(4);
    expect(changed.get('agent: ingest claims')).toBe(2);
    expect(changed.get('agent: compiled matchers')).toBeGreaterThan(0);
    expect(changed.get('agent: definitions and handles fetched from the authority')).toBeGreaterThan(0);
    expect(changed.get('agent: write-ahead log frames folded in and truncated')).toBeGreaterThanOrEqual(0);
    expect(changed.get('authority: write-ahead log frames folded in and truncated')).toBeGreaterThanOrEqual(
      0,
    );

    // A dry run at the agent (its corpus) no longer prints it.
    const dry = await post(agent.url, agent.token!, '/lessons:dry-run', {
      collection: 'customers',
      entry: 'gulftrade',
      value: { pattern: 'origin\\.example', where: 'from' },
      taughtBy: 'sam@warehouse.example',
    });
    expect(dry.status).toBe(200);
    expect(dry.json.total).toBeGreaterThanOrEqual(5);
    expect(JSON.stringify(dry.json).toLowerCase()).not.toContain(ID);

    stopped = true;
    await Promise.all([agent.close(), authority.close()]);
    expect(hitsIn(agentData.dir, ID)).toEqual([]);
    expect(hitsIn(authorityData.dir, ID)).toEqual([]);
  }, 120_000);
});
