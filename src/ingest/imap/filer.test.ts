// Invariant (issue 50): with `fileAs: labels`, a message is labelled through X-GM-LABELS on a server
// that advertises the Gmail extension, and re-labelled once its question is answered; a server
// without it gets IMAP keywords, said once in the log. No Gmail can run here: the IMAP session is a
// recording stand-in; keywords and folders are proven on the real Dovecot (test/e2e/mailbox-filing).
import type { ImapFlow } from 'imapflow';
import { describe, expect, it } from 'vitest';
import { tenantId } from '../../domain/tenant.ts';
import type { Intake } from '../intake.ts';
import type { TaskFiling } from '../ports.ts';
import { recordingLog } from '../../../test/support/ingest.ts';
import { createFiler } from './filer.ts';

function session(capabilities: string[]) {
  const calls: unknown[][] = [];
  const c = {
    capabilities: new Map(capabilities.map((k) => [k, true])),
    mailbox: { path: 'INBOX', delimiter: '/' },
    usable: true,
    messageFlagsAdd: (...a: unknown[]) => (calls.push(['add', ...a]), Promise.resolve(true)),
    messageFlagsRemove: (...a: unknown[]) => (calls.push(['remove', ...a]), Promise.resolve(true)),
    messageMove: (...a: unknown[]) => (calls.push(['move', ...a]), Promise.resolve(true)),
    mailboxOpen: () => Promise.resolve(),
    search: (...a: unknown[]) => (calls.push(['search', ...a]), Promise.resolve([7])),
    fetchOne: () => Promise.resolve({ uid: 7, source: Buffer.from('raw') }),
  };
  return { c: c as unknown as ImapFlow, calls };
}

function filer(states: Map<string, TaskFiling>, log = recordingLog()) {
  return createFiler({
    tenant: tenantId('acme'),
    source: { kind: 'imap', name: 'gmail' },
    folder: 'INBOX',
    processedFolder: 'Processed',
    filing: { template: 'Customers/{customer}', questionsFolder: 'Questions', mode: 'labels' },
    taskFiling: (_t, taskId) => Promise.resolve(states.get(taskId) ?? null),
    intake: { accept: () => Promise.resolve({ kind: 'duplicate', taskId: 't-1' }) } as unknown as Intake,
    log,
    where: { mailbox: 'gmail' },
  });
}

const asking: TaskFiling = { state: 'input-required', filedAs: new Map() };
const decided: TaskFiling = { state: 'completed', filedAs: new Map([['customer', 'Kessler Feinkost GmbH']]) };

describe('filing by Gmail labels (issue 50)', () => {
  it('labels through X-GM-LABELS where the server has the Gmail extension, and re-labels the answered', async () => {
    const states = new Map([['t-1', asking]]);
    const f = filer(states);
    const { c, calls } = session(['IMAP4rev1', 'X-GM-EXT-1']);
    await f.file(c, '7', 't-1');
    expect(calls).toEqual([['add', '7', ['Questions'], { uid: true, useLabels: true }]]);

    calls.length = 0;
    states.set('t-1', decided);
    await f.refileAnswered(c, () => true);
    expect(calls).toEqual([
      ['search', { gmraw: 'label:"Questions"' }, { uid: true }],
      ['remove', '7', ['Questions'], { uid: true, useLabels: true }],
      ['add', '7', ['Customers/Kessler Feinkost GmbH'], { uid: true, useLabels: true }],
    ]);
  });

  it('uses IMAP keywords on a server without the Gmail extension, and says so once', async () => {
    const log = recordingLog();
    const f = filer(new Map([['t-1', decided]]), log);
    const { c, calls } = session(['IMAP4rev1']);
    await f.file(c, '7', 't-1');
    await f.file(c, '8', 't-1');
    expect(calls).toEqual([
      ['add', '7', ['$Customers/Kessler_Feinkost_GmbH'], { uid: true }],
      ['add', '8', ['$Customers/Kessler_Feinkost_GmbH'], { uid: true }],
    ]);
    expect(log.entries.filter((e) => e.message.includes('no Gmail labels'))).toHaveLength(1);
  });
});
