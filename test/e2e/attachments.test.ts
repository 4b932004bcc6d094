// Invariant (issue 14, evidence in attachments): over HTTP with the real @a2a-js/sdk client, a pre-alert whose reference is only in a PDF or only in an XLSX is read as the right customer; an `attachments` mark taught on a reference in a PDF settles the next message carrying it; a broken, encrypted or image-only PDF gives a task that completes or asks, never fails, with the note in the reading.
/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON is read loosely; the assertions check its shape */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskState, type Task } from '@a2a-js/sdk';
import { attachmentFixture, mailWith, type Attached } from '../support/attached-mail.ts';
import { sdkClient, send, type SdkClient } from '../support/sdk-client.ts';
import { startInProcess, type Host } from './host.ts';

let host: Host;
let sdk: SdkClient;
beforeAll(async () => {
  host = await startInProcess();
  sdk = await sdkClient(host.url, host.token!);
});
afterAll(async () => {
  await host.close();
});

let n = 0;
function eml(from: string, attachments: readonly Attached[]): string {
  n += 1;
  return mailWith(
    {
      from,
      subject: `Pre-alert shipment ${n}`,
      messageId: `att-${n}@e2e.example`,
      body: 'Documents attached.',
    },
    attachments,
  );
}

/** The mail as a file part (message/rfc822 bytes). */
function asFilePart(raw: string): Record<string, unknown> {
  return { raw: Buffer.from(raw).toString('base64'), mediaType: 'message/rfc822', filename: `mail-${n}.eml` };
}

function reportOf(task: Task): Record<string, any> {
  const part = task.artifacts[0]?.parts.find((p) => p.content?.$case === 'data');
  if (part?.content?.$case !== 'data') throw new Error(`task ${task.id} has no data artifact`);
  return part.content.value as Record<string, any>;
}

function summaryOf(task: Task): string {
  const part = task.artifacts[0]?.parts.find((p) => p.content?.$case === 'text');
  return part?.content?.$case === 'text' ? part.content.value : '';
}

const state = (t: Task): string => TaskState[t.status!.state];

describe('evidence in attachments, end to end', () => {
  it('reads a pre-alert whose reference is only in a PDF (file part) as the right customer', async () => {
    const task = await send(sdk.client, sdk.opts, {
      parts: [asFilePart(eml('Desk <desk@kessler-autoteile.example>', [attachmentFixture('invoice.pdf')]))],
    });
    expect(state(task)).toBe('TASK_STATE_COMPLETED');
    expect(reportOf(task).customer).toMatchObject({ settled: true, winner: 'northgate' });
    expect(reportOf(task).notes).toBeUndefined();
  });

  it('reads a pre-alert whose reference is only in an XLSX manifest (raw text part) as the right customer, and mappings sees its columns', async () => {
    const task = await send(sdk.client, sdk.opts, {
      parts: [{ text: eml('Ops <ops@amsterdam-handling.example>', [attachmentFixture('manifest.xlsx')]) }],
    });
    expect(state(task)).toBe('TASK_STATE_COMPLETED');
    const report = reportOf(task);
    expect(report.customer).toMatchObject({ settled: true, winner: 'alhamra' });
    expect(report.manifests).toEqual([
      expect.objectContaining({
        attachment: 'manifest.xlsx',
        headingsSeen: ['MAWB', 'HAWB', 'Consignee ref', 'Pcs', 'Weight kg', 'Loaded'],
      }),
    ]);
  });

  it('settles the next message by an attachments mark taught on a reference found only in a PDF', async () => {
    const first = await send(sdk.client, sdk.opts, {
      parts: [asFilePart(eml('Ops <ops@harbourline.example>', [attachmentFixture('air-waybill.pdf')]))],
    });
    expect(state(first)).toBe('TASK_STATE_INPUT_REQUIRED');
    const lesson = await fetch(`${host.url}/authority/v1/lessons`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${host.token!}` },
      body: JSON.stringify({
        collection: 'customers',
        entry: 'brandt',
        value: { pattern: 'HLF-7781-K', where: 'attachments' },
        taughtBy: 'dana@warehouse.example',
        reason: "Harbourline's air waybills carry Brandt's shipper reference",
      }),
    });
    expect(lesson.status).toBe(200);
    expect(((await lesson.json()) as { describes: string }).describes).toBe(
      "matches 'HLF-7781-K' in the attachments",
    );
    // another sender, nothing in subject or body: only the PDF can tell
    const next = await send(sdk.client, sdk.opts, {
      parts: [
        asFilePart(eml('Night desk <night@rotterdam-air.example>', [attachmentFixture('air-waybill.pdf')])),
      ],
    });
    expect(state(next)).toBe('TASK_STATE_COMPLETED');
    expect(reportOf(next).customer).toMatchObject({ settled: true, winner: 'brandt' });
  });

  it('completes a task whose PDFs are broken and encrypted, with a note for each in the reading', async () => {
    const task = await send(sdk.client, sdk.opts, {
      parts: [
        asFilePart(
          eml('Imports <imports@gulftrade.example>', [
            attachmentFixture('broken.pdf'),
            attachmentFixture('encrypted-invoice.pdf'),
          ]),
        ),
      ],
    });
    expect(state(task)).toBe('TASK_STATE_COMPLETED');
    expect(reportOf(task).customer).toMatchObject({ settled: true, winner: 'gulftrade' });
    const notes = [
      'The PDF broken.pdf cannot be read (it is not a valid PDF); its text was not read.',
      'The PDF encrypted-invoice.pdf is encrypted; its text was not read. Send it without a password to have it read.',
    ];
    expect(reportOf(task).notes).toEqual(notes);
    for (const note of notes) expect(summaryOf(task)).toContain(note);
  });

  it('asks about a message whose only PDF is a scan, saying so in the question, and keeps the note once answered', async () => {
    const first = await send(sdk.client, sdk.opts, {
      parts: [asFilePart(eml('Scanner <scan@copyshop.example>', [attachmentFixture('scanned-invoice.pdf')]))],
    });
    expect(state(first)).toBe('TASK_STATE_INPUT_REQUIRED');
    const note =
      'The PDF scanned-invoice.pdf has no text layer (a scan or a picture); its text was not read.';
    const question = first.status!.message!.parts.find((p) => p.content?.$case === 'text');
    expect(question?.content?.$case === 'text' ? question.content.value : '').toContain(note);
    const answered = await send(sdk.client, sdk.opts, {
      taskId: first.id,
      parts: [{ data: { entry: 'northgate' } }],
    });
    expect(state(answered)).toBe('TASK_STATE_COMPLETED');
    expect(reportOf(answered).customer).toMatchObject({ winner: 'northgate', decidedBy: 'person' });
    expect(reportOf(answered).notes).toEqual([note]);
  });
});
