// Invariant: the worked example of Appendix B runs end to end with the real @a2a-js/sdk client over HTTP, in one process and with agent and authority as separate processes.
/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON is read loosely; the assertions check its shape */
import { afterEach, describe, expect, it } from 'vitest';
import { TaskState, type Task } from '@a2a-js/sdk';
import { EXTENSION_URI } from '../../src/domain/extension.ts';
import { sdkClient, send } from '../support/sdk-client.ts';
import { startChild, startInProcess, type Host } from './host.ts';

const hosts: Host[] = [];
afterEach(async () => {
  while (hosts.length > 0) await hosts.pop()!.close();
});

const SENDER = 'billing@origin.example';

function mail(subject: string, messageId: string): string {
  return [
    `From: Origin Billing <${SENDER}>`,
    'To: imports@warehouse.example',
    `Subject: ${subject}`,
    `Message-ID: <${messageId}>`,
    'Date: Mon, 17 Aug 2026 09:00:00 +0000',
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Please find the shipment details below. Regards, the billing desk.',
    '',
  ].join('\r\n');
}

/** A client that renders lesson fields knowing nothing but what the teach block says (§6.3, Appendix B step 3). */
interface LessonField {
  name: string;
  label: string;
  kind: string;
  choices?: string[];
  default?: string;
}
interface RenderedInput {
  label: string;
  control: 'text' | 'select';
  options: string[];
  value: string;
  key: string;
}
function renderBlind(fields: LessonField[], suggested: Record<string, unknown> | undefined): RenderedInput[] {
  return fields.map((f) => {
    const prefill = suggested?.[f.name];
    const control = f.kind === 'choice' ? 'select' : 'text'; // §6.3: unknown kinds render as text
    return {
      label: f.label,
      control,
      options: f.choices ?? [],
      value: typeof prefill === 'string' ? prefill : (f.default ?? ''),
      key: f.name,
    };
  });
}
function valueFrom(form: RenderedInput[]): Record<string, string> {
  return Object.fromEntries(form.filter((i) => i.value !== '').map((i) => [i.key, i.value]));
}

function reportOf(task: Task): Record<string, any> {
  const part = task.artifacts[0]?.parts.find((p) => p.content?.$case === 'data');
  if (part?.content?.$case !== 'data') throw new Error(`task ${task.id} has no data artifact`);
  return part.content.value as Record<string, any>;
}

async function playAppendixB(
  agentUrl: string,
  agentToken: string,
  authorityUrl: string,
  authorityToken: string,
): Promise<void> {
  // 1. The application fetches the agent's card and reads one learnable: customers, with its lesson fields.
  const card = (await (
    await fetch(`${agentUrl}/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } })
  ).json()) as Record<string, any>;
  const ext = card.capabilities.extensions.find((e: { uri: string }) => e.uri === EXTENSION_URI);
  const customers = ext.params.learnables.find((l: { collection: string }) => l.collection === 'customers');
  expect(customers.lessonFields.length).toBeGreaterThan(0);

  const { client, opts, echoed } = await sdkClient(agentUrl, agentToken);

  // 2. A message arrives from billing@origin.example; no mark matches; input-required with a teach block.
  const first = await send(client, opts, {
    parts: [
      {
        raw: Buffer.from(mail('Pre-alert PA-2026-0901', 'pa-0901@origin.example')).toString('base64'),
        mediaType: 'message/rfc822',
        filename: 'pa-0901.eml',
      },
    ],
  });
  expect(TaskState[first.status!.state]).toBe('TASK_STATE_INPUT_REQUIRED');
  expect(echoed()).toBe(EXTENSION_URI); // §7 echo
  const pin = first.metadata?.[EXTENSION_URI]?.pin as { definitionVersion: number; versionId: string };
  expect(pin.versionId).toMatch(/^sha256:/);
  const teach = first.status!.message!.metadata![EXTENSION_URI].teach as {
    collection: string;
    entries: string[];
    suggested?: Record<string, unknown>;
    suggestionLabel?: string;
    lessonFields: LessonField[];
  };
  expect(teach.collection).toBe('customers');
  expect(teach.entries).toContain('northgate');
  // The suggestion is the sender's address (as a literal mark), and its keys are lesson field names (§8).
  const fieldNames = teach.lessonFields.map((f) => f.name);
  expect(Object.keys(teach.suggested ?? {}).every((k) => fieldNames.includes(k))).toBe(true);
  // Appendix B's own value, in people's words (issue 27): the learnable bounds the address whole,
  // so it is never wider than the evidence (§8).
  expect(teach.suggested).toEqual({ pattern: SENDER, where: 'from' });
  expect(teach.suggestionLabel).toBeTruthy();

  // 3. The application renders the fields blind: labels and defaults from the block alone.
  const form = renderBlind(teach.lessonFields, teach.suggested);
  expect(form.map((i) => i.label)).toEqual(customers.lessonFields.map((f: LessonField) => f.label));
  // Everything the suggestion holds is prefilled; a field left empty is left out of the value.
  expect(form.filter((i) => i.value !== '').length).toBeGreaterThanOrEqual(
    Object.keys(teach.suggested ?? {}).length,
  );

  const lessonBody = JSON.stringify({
    collection: teach.collection,
    entry: 'northgate',
    value: valueFrom(form),
    taughtBy: 'dana@warehouse.example',
    reason: "Northgate's billing desk sends the pre-alerts",
  });

  // §13.1: before confirming, the application asks what the lesson would do to the messages read so
  // far. It asks the agent, which keeps that corpus (in either topology), not the authority.
  const dryRes = await fetch(`${agentUrl}/authority/v1/lessons:dry-run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${agentToken}` },
    body: lessonBody,
  });
  expect(dryRes.status).toBe(200);
  const dry = (await dryRes.json()) as Record<string, any>;
  expect(dry.versionId).toBe(pin.versionId); // evaluated under the version active now
  expect(dry.total).toBeGreaterThanOrEqual(1);
  expect(dry.matches).toBe(1); // the one message read so far, from that address
  expect(dry.newlySettled).toBe(1);
  expect(dry.conflicts).toBe(0);

  // 4./5. Dana leaves the teach box ticked: the application posts the Lesson to the authority.
  const lessonRes = await fetch(`${authorityUrl}/authority/v1/lessons`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${authorityToken}` },
    body: lessonBody,
  });
  expect(lessonRes.status).toBe(200);
  const lesson = (await lessonRes.json()) as {
    learned: boolean;
    describes: string;
    definitionVersion: number;
    versionId: string;
  };
  expect(lesson.learned).toBe(true);
  expect(lesson.definitionVersion).toBeGreaterThan(pin.definitionVersion);

  // 6. Show-back, a new task: "Reads as Northgate Motors Ltd, …".
  const recheck = await send(client, opts, { parts: [{ data: { recheck: { taskId: first.id } } }] });
  expect(recheck.id).not.toBe(first.id);
  expect(TaskState[recheck.status!.state]).toBe('TASK_STATE_COMPLETED');
  const shown = reportOf(recheck);
  expect(shown.customer.settled).toBe(true);
  expect(shown.customer.winner).toBe('northgate');
  expect(shown.customer.reads).toMatch(/^Reads as Northgate Motors Ltd/);
  expect(shown.versionId).toBe(lesson.versionId); // §11: the version active now, not the first task's
  // §13.4: each matched mark says who taught it, by handle (the stable person id stays inside), and
  // the application that wrote it for her (the first-start token is the demo's console application).
  const evidence = shown.customer.candidates[0].evidence as { taughtBy: string; activation: number }[];
  expect(evidence).toContainEqual(
    expect.objectContaining({
      taughtBy: 'dana@warehouse.example, via demo-operator',
      activation: lesson.definitionVersion,
    }),
  );

  // 7. The next message from that address is never asked about (a new task, a new message).
  const next = await send(client, opts, {
    parts: [
      {
        raw: Buffer.from(mail('Pre-alert PA-2026-0902', 'pa-0902@origin.example')).toString('base64'),
        mediaType: 'message/rfc822',
        filename: 'pa-0902.eml',
      },
    ],
  });
  expect(TaskState[next.status!.state]).toBe('TASK_STATE_COMPLETED');
  expect(reportOf(next).customer.winner).toBe('northgate');
  expect(reportOf(next).pin.versionId).toBe(lesson.versionId);

  // The task that asked the original question, answered now, finishes on the version it was pinned to.
  const answered = await send(client, opts, { taskId: first.id, parts: [{ data: { entry: 'northgate' } }] });
  expect(TaskState[answered.status!.state]).toBe('TASK_STATE_COMPLETED');
  const decided = reportOf(answered);
  expect(decided.pin).toEqual(pin);
  expect(decided.versionId).toBe(pin.versionId);
  expect(decided.customer.winner).toBe('northgate');
  expect(decided.customer.decidedBy).toBe('person');

  // §13.4: which rules were in force when the next message was decided, and who put them there:
  // one call to the agent (which holds the task's pin), answered from stored state.
  const inForceRes = await fetch(`${agentUrl}/authority/v1/rules-in-force?taskId=${next.id}`, {
    headers: { authorization: `Bearer ${agentToken}` },
  });
  expect(inForceRes.status).toBe(200);
  const inForce = (await inForceRes.json()) as {
    versionId: string;
    rules: { entry: string; describes: string; taughtBy: string; activation: number }[];
  };
  expect(inForce.versionId).toBe(lesson.versionId);
  expect(inForce.rules).toContainEqual(
    expect.objectContaining({
      entry: 'northgate',
      taughtBy: 'dana@warehouse.example',
      via: 'demo-operator',
      activation: lesson.definitionVersion,
    }),
  );
}

describe('Appendix B, end to end with the real SDK client', () => {
  it('plays in one process (agent with its embedded authority)', async () => {
    const host = await startInProcess();
    hosts.push(host);
    await playAppendixB(host.url, host.token!, host.url, host.token!);
  });

  it('plays with the authority and the agent as separate processes (§12.1)', async () => {
    const authority = await startChild({ ROLE: 'authority' });
    hosts.push(authority);
    const agent = await startChild({ AUTHORITY_URL: authority.url, AUTHORITY_TOKEN: authority.token! });
    hosts.push(agent);
    // The agent process serves no authority API of its own, and the authority serves no A2A.
    expect((await fetch(`${agent.url}/authority/v1/history`)).status).toBe(404);
    expect((await fetch(`${authority.url}/.well-known/agent-card.json`)).status).toBe(404);
    await playAppendixB(agent.url, agent.token!, authority.url, authority.token!);
  });
});
