// Invariant: triage_inbound accepts an e-mail as a file part, raw RFC 822 text or message fields, and names what it accepts otherwise.
import { describe, expect, it } from 'vitest';
import { Part } from '@a2a-js/sdk';
import { classifyInput, looksLikeRfc822 } from './input.ts';

const part = (json: object): Part => Part.fromJSON(json);
const MAIL = 'From: billing@origin.example\r\nSubject: Pre-alert\r\n\r\nBody';

describe('classifyInput', () => {
  it('takes a message/rfc822 file part as raw bytes', () => {
    const got = classifyInput([
      part({ raw: Buffer.from(MAIL).toString('base64'), mediaType: 'message/rfc822' }),
    ]);
    expect(got.kind).toBe('raw');
    expect(got.kind === 'raw' && got.bytes.toString()).toBe(MAIL);
  });

  it("reads a file part's bytes where they are, without a copy (issue 16: a 25 MB mail is held once)", () => {
    const p = part({ raw: Buffer.from(MAIL).toString('base64'), mediaType: 'message/rfc822' });
    const got = classifyInput([p]);
    if (got.kind !== 'raw' || p.content?.$case !== 'raw') throw new Error('expected raw bytes');
    expect(got.bytes.buffer).toBe(p.content.value.buffer);
    expect(got.bytes.byteOffset).toBe(p.content.value.byteOffset);
    expect(got.bytes.toString()).toBe(MAIL);
  });

  it('takes raw RFC 822 text and a data part with fields', () => {
    expect(classifyInput([part({ text: MAIL })]).kind).toBe('raw');
    expect(classifyInput([part({ data: { from: 'a@b.example', subject: 's' } })]).kind).toBe('fields');
  });

  it('recognises a recheck request by task id or Message-ID', () => {
    expect(classifyInput([part({ data: { recheck: { taskId: 't1' } } })])).toEqual({
      kind: 'recheck',
      taskId: 't1',
    });
    expect(classifyInput([part({ data: { recheck: { messageId: 'm@x' } } })])).toEqual({
      kind: 'recheck',
      messageId: 'm@x',
    });
    expect(classifyInput([part({ data: { recheck: {} } })]).kind).toBe('rejected');
  });

  it('refuses anything else with a reason naming every accepted form', () => {
    for (const parts of [
      [part({ text: 'hello' })],
      [part({ url: 'https://x.example/m.eml' })],
      [part({ raw: 'AAAA', mediaType: 'image/png' })],
      [],
    ]) {
      const got = classifyInput(parts);
      expect(got.kind).toBe('rejected');
      if (got.kind === 'rejected') {
        expect(got.reason).toContain('message/rfc822');
        expect(got.reason).toContain('text part');
        expect(got.reason).toContain('data part');
      }
    }
  });

  it('tells headers from prose', () => {
    expect(looksLikeRfc822(MAIL)).toBe(true);
    expect(looksLikeRfc822('Note: call me\n\nlater')).toBe(false);
    expect(looksLikeRfc822('Hello there')).toBe(false);
  });
});
