// Every realistic fixture in fixtures/mail parses without error, and expected.json names every fixture once with readings drawn from the demo directory; each fixture with an expected split gives that new text and original sender (issue 14).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RegExpParser } from '@eslint-community/regexpp';
import type { AST } from '@eslint-community/regexpp';
import { describe, expect, it } from 'vitest';
import { parseMail } from '../../src/ingest/mail/parse.ts';

const MAIL = join(import.meta.dirname, '../../fixtures/mail');
const DIRECTORY = join(import.meta.dirname, '../../fixtures/directory/demo.json');

interface Expected {
  file: string;
  customer: string | null;
  kind: string | null;
  manifestFields?: Record<string, string | null>;
  /** What the new text must keep and leave out, and a forward's original sender (issue 14). */
  newText?: { has: string[]; hasNot: string[]; forwardedFrom: string | null };
  notes: string;
}

const PARTS = ['from', 'subject', 'body', 'attachments', 'any', 'quoted'];

const files = readdirSync(MAIL)
  .filter((f) => f.endsWith('.eml'))
  .sort();
const expected = JSON.parse(readFileSync(join(MAIL, 'expected.json'), 'utf8')) as Expected[];
const directory = JSON.parse(readFileSync(DIRECTORY, 'utf8')) as {
  collections: Record<string, Record<string, Record<string, unknown>[]>>;
};

describe('mail fixtures', () => {
  it('has at least 40 realistic messages, each named once in expected.json', () => {
    expect(files.length).toBeGreaterThanOrEqual(40);
    expect(expected.map((e) => e.file).sort()).toEqual(files);
  });

  it('keeps a good share of messages that must stay unsettled, and one from billing@origin.example among them (Appendix B)', async () => {
    const unsettled = expected.filter((e) => e.customer === null);
    expect(unsettled.length).toBeGreaterThanOrEqual(8);
    const fromOrigin = await Promise.all(
      unsettled.map(async (e) => (await parseMail(readFileSync(join(MAIL, e.file)))).from?.address),
    );
    expect(fromOrigin).toContain('billing@origin.example');
  });

  it('expects only customers, kinds and manifest fields the demo directory declares', () => {
    const customers = Object.keys(directory.collections.customers!);
    const kinds = Object.keys(directory.collections.kinds!);
    const fields = Object.keys(directory.collections.mappings!);
    for (const e of expected) {
      if (e.customer !== null) expect(customers).toContain(e.customer);
      if (e.kind !== null) expect(kinds).toContain(e.kind);
      if (e.manifestFields !== undefined)
        expect(Object.keys(e.manifestFields).sort()).toEqual([...fields].sort());
      expect(e.notes.length).toBeGreaterThan(10);
    }
  });

  it('never makes billing@origin.example a known mark (Appendix B: it is the sender that gets taught)', () => {
    const text = JSON.stringify(directory.collections.customers);
    expect(text).not.toMatch(/origin/i);
  });

  it('gives every regex mark and cue of the demo directory a literal of at least 4 characters', () => {
    // the longest run of plain characters in any one alternative (a required literal the matcher's prefilter can use)
    const longestRun = (alternatives: AST.Alternative[]): number =>
      Math.min(
        ...alternatives.map((alt) => {
          let best = 0;
          let run = 0;
          for (const el of alt.elements) {
            if (el.type === 'Character') best = Math.max(best, ++run);
            else {
              run = 0;
              if (el.type === 'Group' || el.type === 'CapturingGroup')
                best = Math.max(best, longestRun(el.alternatives));
            }
          }
          return best;
        }),
      );
    const parser = new RegExpParser();
    for (const collection of ['customers', 'kinds']) {
      for (const [entry, values] of Object.entries(directory.collections[collection]!)) {
        // lesson values stay opaque here (§9): every string in a value but its label and its part is a regex source
        const sources = values.flatMap((value) =>
          Object.entries(value)
            .filter(([key, v]) => key !== 'label' && typeof v === 'string' && !PARTS.includes(v))
            .map(([, v]) => v as string),
        );
        for (const source of sources) {
          const pattern = parser.parsePattern(source, undefined, undefined, { unicode: true });
          expect(
            longestRun(pattern.alternatives),
            `${collection}.${entry}: ${source}`,
          ).toBeGreaterThanOrEqual(4);
        }
      }
    }
  });

  it('covers each phenomenon of issue 14 with fixtures: quotes, forwards, signatures, disclaimers, HTML quoting', () => {
    const split = expected.filter((e) => e.newText !== undefined);
    expect(split.length).toBeGreaterThanOrEqual(20);
    expect(split.filter((e) => e.newText!.forwardedFrom !== null).length).toBeGreaterThanOrEqual(5);
    // the cases whose reading must not settle
    expect(split.filter((e) => e.customer === null).length).toBeGreaterThanOrEqual(3);
    expect(split.filter((e) => e.kind === null && /inherited/.test(e.notes)).length).toBeGreaterThanOrEqual(
      1,
    );
  });

  it.each(expected.filter((e) => e.newText !== undefined).map((e) => [e.file, e] as const))(
    'splits %s into the new text and what it quotes, forwards or signs with',
    async (file, e) => {
      const m = await parseMail(readFileSync(join(MAIL, file)));
      const t = m.text!;
      for (const kept of e.newText!.has) expect(t.newText).toContain(kept);
      for (const left of e.newText!.hasNot) {
        expect(t.newText).not.toContain(left);
        expect(`${t.signature}\n${t.quoted}`).toContain(left); // set apart, not lost
      }
      expect(t.forwardedFrom?.address ?? null).toBe(e.newText!.forwardedFrom);
    },
  );

  it.each(files)('parses %s', async (file) => {
    const raw = readFileSync(join(MAIL, file));
    const m = await parseMail(raw);
    expect(m.from).not.toBeNull();
    expect(m.subject).not.toBe('');
    expect(m.body.length + m.attachments.length).toBeGreaterThan(0);
    expect(m.body).not.toContain('\uFFFD');
    expect(m.subject).not.toContain('\uFFFD');
    const e = expected.find((x) => x.file === file)!;
    if (e.manifestFields !== undefined) {
      // a manifest the readers can find: one attachment parsed into a table with headings
      expect(m.attachments.some((a) => a.table !== null && a.table.headings.length > 1)).toBe(true);
    }
  });
});
