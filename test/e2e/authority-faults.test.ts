// Invariant (§12.1, §11, issue 16): with the authority in its own process, an agent whose authority is slow (SIGSTOP: it never answers) or down (SIGKILL: refused) neither hangs nor answers with an internal error: new triage completes on the last version it verified, show-back and rules-in-force answer AUTHORITY_UNAVAILABLE naming the authority's URL and saying to retry, a parked question is still answered on its pin; once the authority is back (continued, or restarted on the same port and data) the agent recovers by itself and reads under a lesson taught after.
/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON is read loosely; the assertions check its shape */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskState, type Task } from '@a2a-js/sdk';
import { EXTENSION_URI } from '../../src/domain/extension.ts';
import { sdkClient, send, type SdkClient } from '../support/sdk-client.ts';
import { waitFor } from '../support/ingest.ts';
import { startChild, tempDataDir, type ChildHost } from './host.ts';

const authorityData = tempDataDir();
let authority: ChildHost;
let agent: ChildHost;
let sdk: SdkClient;
let port: string;

const mail = (from: string): string =>
  `From: ${from}\r\nSubject: Pre-alert ${randomUUID().slice(0, 6)}\r\nMessage-ID: <af-${randomUUID()}@origin.example>\r\n\r\nShipment.\r\n`;
const mailPart = (text: string) => ({
  raw: Buffer.from(text).toString('base64'),
  mediaType: 'message/rfc822',
  filename: 'mail.eml',
});
const triage = (from: string): Promise<Task> => send(sdk.client, sdk.opts, { parts: [mailPart(mail(from))] });
const recheck = (taskId: string): Promise<Task> =>
  send(sdk.client, sdk.opts, { parts: [{ data: { recheck: { taskId } } }] });
function readingOf(t: Task): any {
  const part = t.artifacts[0]?.parts.find((p) => p.content?.$case === 'data');
  return part?.content?.$case === 'data' ? part.content.value : undefined;
}
const errorOf = (t: Task): any => (t.status?.message?.metadata as any)?.error;
function textOf(t: Task): string {
  const part = t.status?.message?.parts.find((p) => p.content?.$case === 'text');
  return part?.content?.$case === 'text' ? part.content.value : '';
}

async function rulesInForce(taskId: string): Promise<{ status: number; json: any }> {
  const res = await fetch(`${agent.url}/authority/v1/rules-in-force?taskId=${taskId}`, {
    headers: { authorization: `Bearer ${agent.token!}` },
  });
  return { status: res.status, json: await res.json() };
}

async function teach(from: string): Promise<void> {
  const res = await fetch(`${authority.url}/authority/v1/lessons`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${authority.token!}` },
    body: JSON.stringify({
      collection: 'customers',
      entry: 'northgate',
      value: { pattern: from.replace(/\./g, '\\.'), where: 'from' },
      taughtBy: 'dana@warehouse.example',
    }),
  });
  expect(res.status, await res.text()).toBe(200);
}

beforeAll(async () => {
  authority = await startChild({ ROLE: 'authority', DATA_DIR: authorityData.dir });
  port = new URL(authority.url).port;
  agent = await startChild({
    AUTHORITY_URL: authority.url,
    AUTHORITY_TOKEN: authority.token!,
    AUTHORITY_TIMEOUT_MS: '2000',
  });
  sdk = await sdkClient(agent.url, agent.token!);
}, 60_000);
afterAll(async () => {
  try {
    process.kill(authority.pid, 'SIGCONT');
  } catch {
    // already gone
  }
  await Promise.all([agent?.close(), authority?.close()]);
  authorityData.remove();
});

/** What must hold while the authority does not answer: a reading, clear refusals, no internal error. */
async function servesThroughTheFault(before: Task, parked: Task): Promise<void> {
  const verified = readingOf(before).pin.versionId as string;
  for (let i = 0; i < 3; i++) {
    const t = await triage('ops@northgatemotors.example');
    expect(t.status?.state, textOf(t)).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(readingOf(t).pin.versionId).toBe(verified);
    expect(readingOf(t).customer.winner).toBe('northgate');
  }
  // §11: show-back is the version active NOW, so it is refused rather than answered from memory.
  const shown = await recheck(before.id);
  expect(shown.status?.state).toBe(TaskState.TASK_STATE_FAILED);
  expect(errorOf(shown)?.code).toBe('AUTHORITY_UNAVAILABLE');
  expect(textOf(shown)).toContain(authority.url);
  expect(textOf(shown)).toMatch(/retry/);

  const rules = await rulesInForce(before.id);
  expect(rules.status).toBe(503);
  expect(rules.json.error.code).toBe('AUTHORITY_UNAVAILABLE');
  expect(rules.json.error.message).toContain(authority.url);

  // A parked question is answered on the version it was pinned to (§10.3), held by the agent.
  const answered = await send(sdk.client, sdk.opts, {
    taskId: parked.id,
    parts: [{ data: { entry: 'northgate' } }],
  });
  expect(answered.status?.state, textOf(answered)).toBe(TaskState.TASK_STATE_COMPLETED);
  expect(readingOf(answered).pin.versionId).toBe((parked.metadata as any)?.[EXTENSION_URI]?.pin?.versionId);
}

/** Back by itself: show-back answers again, and a lesson taught now reads at the agent. */
async function recovers(before: Task): Promise<void> {
  await waitFor(
    'show-back through the agent to answer again',
    async () => {
      return (await recheck(before.id)).status?.state === TaskState.TASK_STATE_COMPLETED;
    },
    60_000,
  );
  const from = `af-${randomUUID().slice(0, 8)}@lesson.example`;
  await teach(from);
  await waitFor(
    'the agent to read under the lesson taught after recovery',
    async () => {
      const t = await triage(from);
      return readingOf(t)?.customer?.winner === 'northgate';
    },
    60_000,
  );
}

async function setUp(): Promise<{ before: Task; parked: Task }> {
  const before = await triage('ops@northgatemotors.example');
  expect(before.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  const parked = await triage(`nobody-${randomUUID().slice(0, 6)}@unknown.example`);
  expect(parked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  return { before, parked };
}

describe('the authority slow or down in the split topology (§12.1, issue 16)', () => {
  it('keeps triaging on the last verified version while the authority is slow (SIGSTOP), refuses show-back in words, and recovers by itself', async () => {
    const { before, parked } = await setUp();
    process.kill(authority.pid, 'SIGSTOP');
    try {
      await servesThroughTheFault(before, parked);
    } finally {
      process.kill(authority.pid, 'SIGCONT');
    }
    await recovers(before);
  }, 240_000);

  it('keeps triaging on the last verified version while the authority is down (SIGKILL), and recovers by itself once it is restarted on its port', async () => {
    const { before, parked } = await setUp();
    await authority.crash();
    await servesThroughTheFault(before, parked);
    await authority.close(); // gone already; removes only its own unused temporary directory
    authority = await startChild({ ROLE: 'authority', DATA_DIR: authorityData.dir, PORT: port });
    await recovers(before);
  }, 240_000);
});
