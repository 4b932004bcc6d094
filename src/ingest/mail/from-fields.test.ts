// A data part with the fields of a message becomes the same MailMessage a raw mail would, and every bad field is named in the refusal.
import { describe, expect, it } from 'vitest';
import type { DomainError } from '../../domain/errors.ts';
import { isDomainError } from '../../domain/errors.ts';
import { messageFromFields } from './from-fields.ts';

function refusal(data: unknown): DomainError {
  try {
    messageFromFields(data);
  } catch (e) {
    if (isDomainError(e)) return e;
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('messageFromFields', () => {
  it('reads "Name <addr>" senders, recipients, subject, body, id and date', () => {
    const m = messageFromFields({
      from: 'Origin Logistics Billing <Billing@Origin.example>',
      to: 'Imports <imports@warehouse.example>, dana@warehouse.example',
      subject: 'Pre-alert PA-2026-0901',
      body: 'Please find the pre-alert.\r\n',
      messageId: '<pa-0901@origin.example>',
      date: '2026-04-02T06:55:00Z',
    });
    expect(m.from).toEqual({ address: 'billing@origin.example', name: 'Origin Logistics Billing' });
    expect(m.to).toEqual([
      { address: 'imports@warehouse.example', name: 'Imports' },
      { address: 'dana@warehouse.example', name: '' },
    ]);
    expect(m.subject).toBe('Pre-alert PA-2026-0901');
    expect(m.body).toBe('Please find the pre-alert.');
    expect(m.messageId).toBe('pa-0901@origin.example');
    expect(m.date).toBe('2026-04-02T06:55:00.000Z');
    expect(m.contentHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('accepts { address, name } and text as the body', () => {
    const m = messageFromFields({ from: { address: 'a@b.example', name: 'A' }, text: 'hello' });
    expect(m.from).toEqual({ address: 'a@b.example', name: 'A' });
    expect(m.body).toBe('hello');
    expect(m.subject).toBe('');
    expect(m.date).toBeNull();
    expect(m.messageId).toBeNull();
  });

  it('parses a CSV attachment given as text into a manifest table', () => {
    const m = messageFromFields({
      from: 'a@b.example',
      attachments: [
        { filename: 'manifest.csv', text: 'Air Waybill No,Pieces\n176-1,3\n' },
        { filename: 'pod.pdf' },
      ],
    });
    expect(m.attachments).toEqual([
      {
        filename: 'manifest.csv',
        contentType: 'text/csv',
        sizeBytes: 30,
        text: 'Air Waybill No,Pieces\n176-1,3\n',
        table: { headings: ['Air Waybill No', 'Pieces'], rows: [['176-1', '3']] },
      },
      { filename: 'pod.pdf', contentType: 'application/octet-stream', sizeBytes: 0, text: null, table: null },
    ]);
  });

  it('hashes the canonical fields: the same fields in another key order hash alike, other fields differ', () => {
    const a = messageFromFields({ from: 'a@b.example', subject: 's', body: 'b' });
    const b = messageFromFields({ body: 'b', subject: 's', from: 'a@b.example' });
    const c = messageFromFields({ from: 'a@b.example', subject: 's', body: 'c' });
    expect(a.contentHash).toBe(b.contentHash);
    expect(a.contentHash).not.toBe(c.contentHash);
  });

  it('reads forward, reply and automated flags from the fields', () => {
    expect(messageFromFields({ from: 'a@b.example', subject: 'WG: Voravis' }).isForward).toBe(true);
    expect(messageFromFields({ from: 'a@b.example', subject: 'RE: x' }).isReply).toBe(true);
    expect(messageFromFields({ from: 'noreply@portal.example' }).isAutomated).toBe(true);
  });

  it('refuses a missing from, naming the field', () => {
    const e = refusal({ subject: 'x' });
    expect(e.code).toBe('MESSAGE_UNREADABLE');
    expect(e.message).toContain('from is required');
  });

  it('names every bad field at once', () => {
    const e = refusal({
      from: 'not an address',
      subject: 42,
      date: 'someday',
      attachments: [{ text: 'x' }],
      colour: 'red',
    });
    expect(e.message).toContain('from is not an e-mail address');
    expect(e.message).toContain('subject must be text');
    expect(e.message).toContain('date is not a date');
    expect(e.message).toContain('attachments[0].filename is required');
    expect(e.message).toContain('"colour" is not a field');
    expect(e.details?.fields).toHaveLength(5);
  });

  it('refuses something that is not an object', () => {
    expect(refusal([1, 2]).message).toContain('not a list');
    expect(refusal(null).message).toContain('not null');
  });

  it('refuses a body past maxTextChars naming the limit', () => {
    let caught: unknown;
    try {
      messageFromFields({ from: 'a@b.example', body: 'x'.repeat(20) }, { maxTextChars: 10 });
    } catch (e) {
      caught = e;
    }
    expect(isDomainError(caught, 'MESSAGE_TOO_LARGE')).toBe(true);
    expect((caught as Error).message).toContain('(maxTextChars)');
  });
});
