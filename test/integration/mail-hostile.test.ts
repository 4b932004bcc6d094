// A hostile or broken message yields a MailMessage or a DomainError naming what was wrong: never a crash, a hang, or a foreign error.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isDomainError } from '../../src/domain/errors.ts';
import type { MailMessage } from '../../src/domain/mail/index.ts';
import { parseMail } from '../../src/ingest/mail/parse.ts';

const HOSTILE = join(import.meta.dirname, '../../fixtures/mail/hostile');
const fixture = (name: string): Buffer => readFileSync(join(HOSTILE, name));

/** Parses and returns either the message or the DomainError; any other throw fails the test. */
async function outcome(
  raw: Buffer | string,
  limits?: Parameters<typeof parseMail>[1],
): Promise<MailMessage | Error> {
  try {
    return await parseMail(raw, limits);
  } catch (e) {
    if (!isDomainError(e)) throw e;
    return e;
  }
}

function refused(result: MailMessage | Error, code: string, limit: string): Error {
  expect(result).toBeInstanceOf(Error);
  const e = result as Error & { code: string };
  expect(e.code).toBe(code);
  expect(e.message).toContain(`(${limit})`);
  return e;
}

function message(result: MailMessage | Error): MailMessage {
  if (result instanceof Error) throw result;
  return result;
}

const multipart = (boundary: string, parts: string[]): string =>
  parts.map((p) => `--${boundary}\r\n${p}\r\n`).join('') + `--${boundary}--\r\n`;

describe('hostile fixtures (fixtures/mail/hostile)', () => {
  it('bad-boundary.eml: a boundary that never comes reads as a message with its headers', async () => {
    const m = message(await outcome(fixture('bad-boundary.eml')));
    expect(m.subject).toBe('Pre-alert with a boundary that never comes');
    expect(m.from?.address).toBe('ops@broken.example');
  });

  it('unterminated-multipart.eml: a message cut off mid-attachment keeps what arrived', async () => {
    const m = message(await outcome(fixture('unterminated-multipart.eml')));
    expect(m.body).toBe('First part, and then the message just stops');
    expect(m.attachments.map((a) => a.filename)).toEqual(['cut.csv']);
  });

  it('unknown-charset.eml: unknown charsets in words, body and attachment fall back without failing', async () => {
    const m = message(await outcome(fixture('unknown-charset.eml')));
    expect(m.body).toContain('AWB 123-45678901');
    expect(m.attachments[0]!.text).toBe('AWB,Pieces\n123-45678901,4 café');
    expect(m.attachments[0]!.table?.headings).toEqual(['AWB', 'Pieces']);
  });

  it('no-headers.eml: text with no header block reads as the body', async () => {
    const m = message(await outcome(fixture('no-headers.eml')));
    expect(m.from).toBeNull();
    expect(m.body).toContain('AWB 176-44021865');
  });

  it('nul-bytes.eml: NUL and control bytes are removed from every text field', async () => {
    const m = message(await outcome(fixture('nul-bytes.eml')));
    const all = JSON.stringify(m);
    expect(all).not.toMatch(/\\u0000|\\u0007/);
    expect(m.subject).toBe('Pre-alert with NUL');
    expect(m.messageId).toBe('nul@bytes.example');
  });

  it('bad-base64-and-zip.eml: broken base64 decodes what it can; a zip is never opened', async () => {
    const m = message(await outcome(fixture('bad-base64-and-zip.eml')));
    expect(m.attachments.map((a) => [a.filename, a.text === null])).toEqual([
      ['bad.csv', false],
      ['bomb.zip', true],
    ]);
  });

  it('broken-headers.eml: garbage addresses give no address, a garbage date gives null', async () => {
    const m = message(await outcome(fixture('broken-headers.eml')));
    expect(m.from).toBeNull();
    expect(m.to).toEqual([]);
    expect(m.date).toBeNull();
    expect(m.body).toContain('half a euro');
  });

  it('bare-cr.eml: old Mac line ends read as lines', async () => {
    const m = message(await outcome(fixture('bare-cr.eml')));
    expect(m.subject).toBe('Pre-alert with bare CR line ends');
    expect(m.body).toBe('Line one\nLine two');
  });

  it('empty-boundary.eml: an empty boundary parameter does not crash', async () => {
    const m = message(await outcome(fixture('empty-boundary.eml')));
    expect(m.subject).toBe('Empty multipart');
  });
});

describe('hostile messages generated here (too big to commit)', () => {
  it('refuses a 30 MiB message naming maxMessageBytes, before parsing it', async () => {
    const raw = Buffer.alloc(31_457_280, 0x61);
    const e = refused(await outcome(raw), 'MESSAGE_TOO_LARGE', 'maxMessageBytes');
    expect(e.message).toBe(
      'This message is 31,457,280 bytes; the largest message this agent reads is 26,214,400 bytes (maxMessageBytes). Send a smaller message or raise MAX_MESSAGE_BYTES.',
    );
  });

  it('refuses an enormous header block naming maxHeaderBytes', async () => {
    const junk = Array.from({ length: 2000 }, (_, i) => `X-Junk-${i}: ${'j'.repeat(60)}`).join('\r\n');
    refused(await outcome(`From: a@b.example\r\n${junk}\r\n\r\nbody`), 'MESSAGE_TOO_LARGE', 'maxHeaderBytes');
  });

  it('refuses one endless header line naming maxHeaderBytes', async () => {
    refused(await outcome(`Subject: ${'x'.repeat(1_000_000)}`), 'MESSAGE_TOO_LARGE', 'maxHeaderBytes');
  });

  it('refuses an enormous header inside an attached part', async () => {
    const partHeader = Array.from({ length: 3000 }, (_, i) => `X-P-${i}: ${'p'.repeat(60)}`).join('\r\n');
    const raw = `From: a@b.example\r\nContent-Type: multipart/mixed; boundary="b"\r\n\r\n${multipart('b', [`Content-Type: text/plain\r\n${partHeader}\r\n\r\nx`])}`;
    refused(await outcome(raw), 'MESSAGE_TOO_LARGE', 'maxHeaderBytes');
  });

  it('refuses a base64 attachment that decodes past maxAttachmentBytes (a bomb in disguise)', async () => {
    const payload = Buffer.alloc(11 * 1024 * 1024, 0)
      .toString('base64')
      .replace(/.{76}/g, '$&\r\n');
    const raw = `From: a@b.example\r\nContent-Type: multipart/mixed; boundary="b"\r\n\r\n${multipart('b', [
      'Content-Type: text/plain\r\n\r\nsee attached',
      `Content-Type: application/octet-stream; name="zeros.bin"\r\nContent-Disposition: attachment; filename="zeros.bin"\r\nContent-Transfer-Encoding: base64\r\n\r\n${payload}`,
    ])}`;
    const e = refused(await outcome(raw), 'MESSAGE_TOO_LARGE', 'maxAttachmentBytes');
    expect(e.message).toContain('zeros.bin');
  });

  it('refuses more than maxAttachments attachments', async () => {
    const parts = Array.from(
      { length: 60 },
      (_, i) =>
        `Content-Type: text/plain; name="a${i}.txt"\r\nContent-Disposition: attachment; filename="a${i}.txt"\r\n\r\n${i}`,
    );
    const raw = `From: a@b.example\r\nContent-Type: multipart/mixed; boundary="b"\r\n\r\n${multipart('b', ['Content-Type: text/plain\r\n\r\nbody', ...parts])}`;
    refused(await outcome(raw), 'MESSAGE_TOO_LARGE', 'maxAttachments');
  });

  it('refuses thousands of MIME parts with a clear error', async () => {
    const parts = Array.from({ length: 3000 }, () => 'Content-Type: text/plain\r\n\r\nx');
    const raw = `From: a@b.example\r\nContent-Type: multipart/mixed; boundary="b"\r\n\r\n${multipart('b', parts)}`;
    const result = await outcome(raw);
    expect(result).toBeInstanceOf(Error);
    expect((result as Error).message).toContain('more than 1,000 MIME parts');
  });

  it('refuses a MIME nesting bomb in its own words, with advice for the sender, not the parser wording (issue 16)', async () => {
    let inner = 'Content-Type: text/plain\r\n\r\nhi\r\n';
    for (let i = 0; i < 2000; i++)
      inner = `Content-Type: multipart/mixed; boundary="b${i}"\r\n\r\n--b${i}\r\n${inner}\r\n--b${i}--\r\n`;
    const result = await outcome(`From: a@b.example\r\nSubject: bomb\r\n${inner}`);
    expect(result).toBeInstanceOf(Error);
    const e = result as Error & { code: string };
    expect(e.code).toBe('MESSAGE_UNREADABLE');
    expect(e.message).toContain('nested inside each other');
    expect(e.message).toContain('Ask the sender');
    expect(e.message).not.toMatch(/child nodes|Send it again/);
  });

  it('refuses a text part longer than maxTextChars', async () => {
    refused(
      await outcome(`From: a@b.example\r\n\r\n${'word '.repeat(500)}`, { maxTextChars: 1000 }),
      'MESSAGE_TOO_LARGE',
      'maxTextChars',
    );
  });

  it('opens attached messages only maxNestingDepth deep, however deep they nest', async () => {
    let raw = 'From: innermost@x.example\r\nSubject: level 200\r\n\r\ninnermost body';
    for (let level = 199; level >= 0; level--) {
      raw = `From: l${level}@x.example\r\nSubject: level ${level}\r\nContent-Type: multipart/mixed; boundary="n${level}"\r\n\r\n${multipart(`n${level}`, [`Content-Type: text/plain\r\n\r\nbody ${level}`, `Content-Type: message/rfc822\r\n\r\n${raw}`])}`;
    }
    const m = message(await outcome(raw));
    expect(m.body).toBe('body 0');
    expect(m.attachments.map((a) => a.filename)).toEqual([
      'level 1.eml',
      'level 2.eml',
      'level 3.eml',
      'attached message.eml',
    ]);
    expect(m.attachments[3]!.text).toBeNull();
  });

  it('reads HTML nested 100,000 elements deep without overflowing the stack', async () => {
    const html = '<div>'.repeat(100_000) + 'deep text' + '</div>'.repeat(100_000);
    const m = message(
      await outcome(`From: a@b.example\r\nContent-Type: text/html\r\n\r\n<p>top text</p>${html}`),
    );
    expect(m.body).toContain('top text');
    expect(m.body).toContain('deep text');
  });

  it('reads seeded binary garbage as a message or refuses it, never anything else', async () => {
    let seed = 12345;
    for (let round = 0; round < 20; round++) {
      const bytes = Buffer.alloc(16 * 1024 + round * 997);
      for (let i = 0; i < bytes.length; i++) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        bytes[i] = seed >> 16;
      }
      const result = await outcome(bytes);
      if (result instanceof Error) expect(isDomainError(result)).toBe(true);
      else expect(typeof result.body).toBe('string');
    }
  });

  it('gives up a parse that outlasts parseTimeoutMs with a refusal naming it', async () => {
    const big = `From: a@b.example\r\nContent-Type: text/plain\r\n\r\n${'line of text\r\n'.repeat(400_000)}`;
    refused(
      await outcome(big, { parseTimeoutMs: 1, maxTextChars: 10_000_000 }),
      'MESSAGE_UNREADABLE',
      'parseTimeoutMs',
    );
  });
});
