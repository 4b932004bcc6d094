// Invariant (issue 13, §9): a learnable defined only in this folder, with its own lesson fields and a
// `choice` kind, goes through triage, the question and its teach block (§8), a lesson (§10), pinning
// (§10.3), show-back (§11), dry-run (§13.1) and erase (§14) over HTTP with the real SDK client,
// registered through the same registry, while the wire of the agent's own learnables stays as it was.
/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON is read loosely; the assertions check its shape */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskState, type Task } from '@a2a-js/sdk';
import { loadConfig } from '../../src/config/config.ts';
import { EXTENSION_URI } from '../../src/domain/extension.ts';
import { compose, type Composition } from '../../src/main.ts';
import { authorityCall } from '../support/calls.ts';
import { sdkClient, send as sendWith, type SdkClient } from '../support/sdk-client.ts';
import { createUnitsLearnable, UNITS } from './units/units.ts';

let composition: Composition;
let dataDir: string;
let url: string;
let token: string;
let sdk: SdkClient;

beforeAll(async () => {
  // The composition root of main.ts with one more learnable, the way a deployment adds one (§9).
  dataDir = mkdtempSync(join(tmpdir(), 'learnables-units-'));
  const config = loadConfig({ HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  composition = await compose(config, { announce: () => {}, learnables: [createUnitsLearnable()] });
  url = (await composition.server.listen(0, '127.0.0.1')).localUrl;
  token = composition.demoToken!;
  sdk = await sdkClient(url, token);
});
afterAll(async () => {
  await composition.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function mail(messageId: string, body: string): string {
  return [
    'From: Northgate Ops <ops@northgatemotors.example>',
    'To: imports@warehouse.example',
    'Subject: Pre-alert NGM-PO-12345',
    `Message-ID: <${messageId}>`,
    'Date: Mon, 17 Aug 2026 09:00:00 +0000',
    'Content-Type: text/plain; charset=utf-8',
    '',
    body,
    '',
  ].join('\r\n');
}

const send = (message: Record<string, unknown>): Promise<Task> => sendWith(sdk.client, sdk.opts, message);
const sendMail = (id: string, body: string): Promise<Task> =>
  send({ parts: [{ raw: Buffer.from(mail(id, body)).toString('base64'), mediaType: 'message/rfc822' }] });

function reportOf(task: Task): Record<string, any> {
  const part = task.artifacts[0]?.parts.find((p) => p.content?.$case === 'data');
  if (part?.content?.$case !== 'data') throw new Error(`task ${task.id} has no data artifact`);
  return part.content.value as Record<string, any>;
}

async function post(path: string, body: unknown): Promise<{ status: number; json: any }> {
  const r = await authorityCall(url, token, 'POST', `/${path}`, body);
  return { status: r.status, json: r.body };
}
const teach = (entry: string, value: Record<string, string>) =>
  post('lessons', { collection: UNITS, entry, value, taughtBy: 'dana@warehouse.example', reason: 'units' });

describe('a fourth learnable, defined only in a test folder, over HTTP with the real SDK client', () => {
  it('is declared on the card with its own lesson fields and choice kind (§6.2, §6.3)', async () => {
    const card = (await sdk.client.getAgentCard()) as Record<string, any>;
    const ext = card.capabilities.extensions.find((e: { uri: string }) => e.uri === EXTENSION_URI);
    const units = ext.params.learnables.find((l: { collection: string }) => l.collection === UNITS);
    expect(units.entry).toBe('unit');
    expect(units.lessonFields).toContainEqual(
      expect.objectContaining({ name: 'system', kind: 'choice', choices: ['metric', 'imperial'] }),
    );
  });

  it('asks, is taught, finishes pinned, shows back, dry-runs and is erased (§8, §10.3, §11, §13.1, §14)', async () => {
    // Two units known, neither written as KGS.
    expect((await teach('kilogram', { symbol: 'kg', system: 'metric' })).json.learned).toBe(true);
    expect((await teach('pound', { symbol: 'lb', system: 'imperial' })).json.learned).toBe(true);

    // Triage: customer and kind settle as before; the unit cannot, so the task asks (§8).
    const first = await sendMail('units-1@northgatemotors.example', 'Gross weight 1,200 KGS.');
    expect(TaskState[first.status!.state]).toBe('TASK_STATE_INPUT_REQUIRED');
    const pin = first.metadata?.[EXTENSION_URI]?.pin as { definitionVersion: number; versionId: string };
    const question = first.status!.message!;
    expect(question.parts[0]!.content).toMatchObject({
      $case: 'text',
      value: expect.stringMatching(/^Which unit are these weights in\? No unit I know is written as 'KGS'/),
    });
    const block = question.metadata![EXTENSION_URI].teach as Record<string, any>;
    expect(block.collection).toBe(UNITS);
    expect(block.entries).toEqual(['kilogram', 'pound']);
    expect(block.suggested).toEqual({ symbol: 'KGS' }); // §8: no wider than the word written
    expect(block.lessonFields.map((f: { name: string }) => f.name)).toEqual(['symbol', 'system']);

    // Dry run (§13.1): the lesson would settle the one message read, and move none.
    const lesson = { symbol: 'KGS', system: 'metric' };
    const dry = await post('lessons:dry-run', {
      collection: UNITS,
      entry: 'kilogram',
      value: lesson,
      taughtBy: 'dana@warehouse.example',
    });
    expect(dry.status).toBe(200);
    expect(dry.json).toMatchObject({ learned: true, matches: 1, newlySettled: 1, conflicts: 0 });
    expect(dry.json.describes).toBe("reads 'KGS' as kilogram (metric)");

    // §10.1: the learnable's own refusal; §10.2: the same lesson twice learns nothing.
    const wrong = await teach('kilogram', { symbol: 'KGS', system: 'imperial' });
    expect(wrong.status).toBe(422);
    expect(wrong.json.error.message).toBe('kilogram is metric, not imperial: teach KGS to a imperial unit.');
    const taught = await teach('kilogram', lesson);
    expect(taught.json).toMatchObject({ learned: true, describes: "reads 'KGS' as kilogram (metric)" });
    expect((await teach('kilogram', lesson)).json.learned).toBe(false);

    // A new message settles under the new version without asking.
    const next = await sendMail('units-2@northgatemotors.example', 'Gross weight 800 KGS.');
    expect(TaskState[next.status!.state]).toBe('TASK_STATE_COMPLETED');
    expect(reportOf(next).unit).toMatchObject({ settled: true, winner: 'kilogram', decidedBy: 'rules' });
    expect(reportOf(next).customer).toMatchObject({ settled: true, winner: 'northgate' });
    expect(reportOf(next).kind).toMatchObject({ settled: true, winner: 'pre-alert' });

    // §10.3: the first task, answered now, still runs on its pinned version (where KGS was unknown).
    const answered = await send({ taskId: first.id, parts: [{ data: { unit: 'kilogram' } }] });
    expect(TaskState[answered.status!.state]).toBe('TASK_STATE_COMPLETED');
    const decided = reportOf(answered);
    expect(decided.pin).toEqual(pin);
    expect(decided.versionId).toBe(pin.versionId);
    expect(decided.unit).toMatchObject({
      winner: 'kilogram',
      decidedBy: 'person',
      reads: 'Decided by a person: kilogram',
    });

    // §11 show-back: under the version active now, settled, and saying on what.
    const shown = reportOf(await send({ parts: [{ data: { recheck: { taskId: first.id } } }] }));
    expect(shown.versionId).toBe(taught.json.versionId);
    expect(shown.unit).toMatchObject({
      settled: true,
      winner: 'kilogram',
      reads: 'Weights are in kilogram, on 1,200 KGS',
    });
    expect(shown.customer.winner).toBe('northgate');

    // §14: erasing the symbol takes it out of every version and out of the mail the task kept, so
    // show-back no longer reads it as kilogram, nor quotes it. (This once read "No unit I know is
    // written as 'KGS'": a copy of the task from before the erase, kept for a moment after its save,
    // was served. An erase now drops those copies, issue 41.)
    const erased = await post('erase', {
      identifier: 'KGS',
      taughtBy: 'dana@warehouse.example',
      reason: 'test',
    });
    expect(erased.status).toBe(200);
    const after = reportOf(await send({ parts: [{ data: { recheck: { taskId: first.id } } }] }));
    expect(after.unit.winner).toBeUndefined();
    expect(JSON.stringify(after)).not.toContain('KGS');
  });
});
