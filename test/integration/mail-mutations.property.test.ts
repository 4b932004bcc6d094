// Invariant (issue 16): random mutations of the MIME fixtures — truncated anywhere, boundaries cut or corrupted, bad transfer encodings and charsets, nesting far past the limits, header floods, flipped bytes — give a reading or a clear refusal (MESSAGE_UNREADABLE / MESSAGE_TOO_LARGE in words), never another error, a crash or a hang: each parse ends within its parseTimeoutMs plus a margin.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isDomainError } from '../../src/domain/errors.ts';
import { parseMail } from '../../src/ingest/mail/parse.ts';

const DIR = join(import.meta.dirname, '../../fixtures/mail');
const fixtures = readdirSync(DIR, { recursive: true, withFileTypes: true })
  .filter((d) => d.isFile() && d.name.endsWith('.eml'))
  .map((d) => readFileSync(join(d.parentPath, d.name)).toString('latin1'));

const PARSE_TIMEOUT_MS = 2_000;

type Mutation = (mail: string) => string;
const at = (n: number, mail: string): number => (mail.length === 0 ? 0 : n % mail.length);

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  // truncated anywhere
  fc.nat().map(
    (n): Mutation =>
      (m) =>
        m.slice(0, at(n, m)),
  ),
  // every boundary delimiter cut short, or its closing one removed
  fc.constantFrom<Mutation>(
    (m) =>
      m.replace(/\r?\n--([^\r\n]+)/g, (_x, b: string) => `\n--${b.slice(0, Math.max(1, b.length >> 1))}`),
    (m) => m.replace(/--\r?\n?$/gm, ''),
    (m) => m.replace(/boundary="?([^";\r\n]+)"?/gi, 'boundary=""'),
  ),
  // bad transfer encodings and charsets
  fc.constantFrom('base64', 'quoted-printable', 'x-uuencode', '8bit', 'bogus', '').map(
    (enc): Mutation =>
      (m) =>
        m.replace(/Content-Transfer-Encoding:[^\r\n]*/gi, `Content-Transfer-Encoding: ${enc}`),
  ),
  fc.constantFrom('utf-7', 'x-unknown', 'utf-16', 'iso-2022-jp', '"').map(
    (cs): Mutation =>
      (m) =>
        m.replace(/charset="?[^";\r\n]+"?/gi, `charset=${cs}`),
  ),
  // nested far deeper than any limit
  fc.integer({ min: 5, max: 1500 }).map((depth): Mutation => (m) => {
    let out = m;
    for (let i = 0; i < depth; i++)
      out = `Content-Type: multipart/mixed; boundary="n${i}"\r\n\r\n--n${i}\r\n${out}\r\n--n${i}--\r\n`;
    return `From: nest@bomb.example\r\n${out}`;
  }),
  fc.integer({ min: 2, max: 8 }).map((depth): Mutation => (m) => {
    let out = m;
    for (let i = 0; i < depth; i++)
      out = `From: fwd${i}@relay.example\r\nContent-Type: message/rfc822\r\n\r\n${out}`;
    return out;
  }),
  // header floods
  fc.record({ count: fc.integer({ min: 100, max: 20_000 }), width: fc.integer({ min: 1, max: 400 }) }).map(
    ({ count, width }): Mutation =>
      (m) =>
        `${Array.from({ length: count }, (_, i) => `X-Flood-${i}: ${'v'.repeat(width)}`).join('\r\n')}\r\n${m}`,
  ),
  // flipped bytes
  fc
    .array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 50 })
    .map((flips): Mutation => (m) => {
      const chars = m.split('');
      for (const [i, c] of flips) if (chars.length > 0) chars[at(i, m)] = String.fromCharCode(c);
      return chars.join('');
    }),
);

describe('random mutations of the MIME fixtures', () => {
  it('give a reading or a clear refusal, within the parse timeout', async () => {
    expect(fixtures.length).toBeGreaterThan(20);
    const seen = { read: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...fixtures),
        fc.array(mutation, { minLength: 1, maxLength: 3 }),
        async (fixture, mutations) => {
          const raw = Buffer.from(
            mutations.reduce((m, f) => f(m), fixture),
            'latin1',
          );
          const started = Date.now();
          try {
            const m = await parseMail(raw, { parseTimeoutMs: PARSE_TIMEOUT_MS });
            expect(typeof m.body).toBe('string');
            expect(typeof m.subject).toBe('string');
            seen.read++;
          } catch (e) {
            if (!isDomainError(e)) throw e;
            expect(['MESSAGE_UNREADABLE', 'MESSAGE_TOO_LARGE']).toContain(e.code);
            expect(e.message).toMatch(/\. [A-Z]/); // what was wrong, then what to do
            expect(e.message).not.toMatch(/child nodes|Cannot read|undefined/);
            seen.refused++;
          }
          expect(Date.now() - started).toBeLessThan(PARSE_TIMEOUT_MS + 3_000);
        },
      ),
      { numRuns: 100, seed: Number(process.env.FC_SEED ?? Date.now() % 2 ** 31) },
    );
    expect(seen.read).toBeGreaterThan(0);
    expect(seen.refused).toBeGreaterThan(0);
  }, 90_000);
});
