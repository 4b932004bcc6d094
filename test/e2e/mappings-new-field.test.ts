// Invariant (issue 12.3, §6.3, §10.1, §10.4): a mappings lesson for a field nobody has is refused with
// the nearest fields and the way to start one, leaving the record as it was, unless it asks through
// the `newField` choice the card declares; then describes says a new field was made and the next
// manifest reads it. Over HTTP with the real SDK client, on the demo tenant's real SQLite.
/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON is read loosely; the assertions check its shape */
import type { Task } from '@a2a-js/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTENSION_URI } from '../../src/domain/extension.ts';
import { authorityCall } from '../support/calls.ts';
import { sdkClient, send, type SdkClient } from '../support/sdk-client.ts';
import { startInProcess, type Host } from './host.ts';

let host: Host;
let sdk: SdkClient;
const TEACHER = 'dana@warehouse.example';

beforeAll(async () => {
  host = await startInProcess();
  sdk = await sdkClient(host.url, host.token!);
});
afterAll(async () => {
  await host.close();
});

const teach = (entry: string, value: Record<string, string>) =>
  authorityCall(host.url, host.token!, 'POST', '/lessons', {
    collection: 'mappings',
    entry,
    value,
    taughtBy: TEACHER,
    reason: 'seen on a manifest',
  });

/** A pre-alert whose CSV manifest has a consignee column no field knows yet. */
const manifestMail = (messageId: string) => ({
  parts: [
    {
      mediaType: 'application/json',
      data: {
        from: 'ops@northgatemotors.example',
        to: ['imports@warehouse.example'],
        subject: 'Pre-alert NGM-PO-12345',
        messageId,
        body: 'The manifest is attached.',
        attachments: [
          {
            filename: 'manifest.csv',
            contentType: 'text/csv',
            text: 'AWB,Consignee Name,Gross Wt\r\n176-44021865,Northgate Motors Ltd,412\r\n',
          },
        ],
      },
    },
  ],
});

function manifestOf(task: Task): Record<string, any> {
  const part = task.artifacts[0]?.parts.find((p) => p.content?.$case === 'data');
  if (part?.content?.$case !== 'data') throw new Error(`task ${task.id} has no data artifact`);
  const manifests = (part.content.value as Record<string, any>).manifests as Record<string, any>[];
  expect(manifests).toHaveLength(1);
  return manifests[0]!;
}

const fieldNamed = (manifest: Record<string, any>, field: string) =>
  (manifest.fields as Record<string, any>[]).find((f) => f.field === field);

describe('mappings: a new field only when a lesson asks for one (issue 12.3)', () => {
  it('declares the newField choice on the card, so a blind client renders it (§6.3)', async () => {
    const card = (await sdk.client.getAgentCard()) as any;
    const ext = card.capabilities.extensions.find((e: { uri: string }) => e.uri === EXTENSION_URI);
    const mappings = ext.params.learnables.find((l: { collection: string }) => l.collection === 'mappings');
    expect(mappings.lessonFields).toEqual([
      expect.objectContaining({ name: 'column', kind: 'text' }),
      expect.objectContaining({
        name: 'newField',
        label: 'A new field?',
        kind: 'choice',
        choices: ['no', 'yes'],
        default: 'no',
      }),
    ]);
  });

  it('refuses a typo with the nearest fields and stores nothing; creates on newField yes, says so, and reads it (§10.1, §10.4, §11)', async () => {
    const first = await send(sdk.client, sdk.opts, manifestMail('manifest-1@northgatemotors.example'));
    expect(fieldNamed(manifestOf(first), 'weight')).toMatchObject({ settled: false });
    expect(fieldNamed(manifestOf(first), 'consignee')).toBeUndefined();
    const before = await authorityCall(host.url, host.token!, 'GET', '/history');

    // A typo of an existing field: refused, naming it, and saying how to start a new one.
    const typo = await teach('wieght', { column: 'Gross Wt' });
    expect(typo.status).toBe(422);
    expect(typo.body.error.code).toBe('ENTRY_UNKNOWN');
    expect(typo.body.error.message).toBe(
      'There is no field "wieght" in mappings; did you mean "weight"? Or choose "yes" for "A new field?" to start a new field.',
    );
    // What a blind client sends for an untouched choice: its default, 'no'. Refused alike, dry run too.
    expect((await teach('wieght', { column: 'Gross Wt', newField: 'no' })).status).toBe(422);
    const dry = await authorityCall(host.url, host.token!, 'POST', '/lessons:dry-run', {
      collection: 'mappings',
      entry: 'wieght',
      value: { column: 'Gross Wt' },
      taughtBy: TEACHER,
    });
    expect(dry.body.error.code).toBe('ENTRY_UNKNOWN');
    expect(await authorityCall(host.url, host.token!, 'GET', '/history')).toEqual(before);

    // Asking for a new field through the declared choice: learned, and describes says it is new.
    const created = await teach('consignee', { column: 'Consignee Name', newField: 'yes' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      learned: true,
      describes: `new field "consignee": reads consignee from the 'Consignee Name' column`,
    });
    // A heading for a field that exists needs no answer, and is not called new.
    const known = await teach('weight', { column: 'Gross Wt', newField: 'no' });
    expect(known.body).toMatchObject({ learned: true, describes: "reads weight from the 'Gross Wt' column" });

    // The next manifest reads both under the version now active.
    const next = manifestOf(
      await send(sdk.client, sdk.opts, manifestMail('manifest-2@northgatemotors.example')),
    );
    expect(fieldNamed(next, 'consignee')).toMatchObject({
      settled: true,
      column: 'Consignee Name',
      values: ['Northgate Motors Ltd'],
    });
    expect(fieldNamed(next, 'weight')).toMatchObject({ settled: true, column: 'Gross Wt', values: ['412'] });
  });
});
