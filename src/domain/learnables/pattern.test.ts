// Invariant: a pattern is judged on re2 at absorption, refused with a reason a person can act on, and never hangs (§13.3, §13.1, §10.1).
import RE2 from 're2';
import { describe, expect, it } from 'vitest';
import type { MailMessage } from '../mail/index.ts';
import {
  compileMatcher,
  createMatchingRuntime,
  createNaiveMatcher,
  plainLiteral,
  type Mark,
} from '../matching/index.ts';
import { MAX_PATTERN_CHARS, judgePattern, patternMentions, re2Error, type PatternRules } from './pattern.ts';

const customerRules: PatternRules = {
  noun: 'pattern',
  maxSampleShare: 0.25,
  refuseFreightWords: true,
  onlyIn: "only this customer's mail contains",
  example: 'like an address or a reference',
};
const kindRules: PatternRules = {
  ...customerRules,
  noun: 'cue',
  maxSampleShare: 0.5,
  refuseFreightWords: false,
};

function reasonFor(source: string, rules = customerRules): string {
  const v = judgePattern(source, rules);
  if (v.ok) throw new Error(`expected "${source}" to be refused`);
  return v.reason;
}

describe('judgePattern', () => {
  it("refuses a pattern re2 cannot compile with re2's own reason, phrased like the spec (§10.1, §13.3)", () => {
    const source = 'billing@origin\\.example(';
    let re2Message = '';
    try {
      new RE2(source, 'iu');
    } catch (e) {
      re2Message = (e as Error).message;
    }
    expect(re2Message).toMatch(/^missing \)/);
    const reason = reasonFor(source);
    expect(reason.startsWith(`"billing@origin\\.example(" is not a usable pattern: missing )`)).toBe(true);
    expect(reason).toContain(re2Message);
  });

  it('refuses what re2 refuses: backreferences and lookarounds (§13.3)', () => {
    expect(reasonFor('(northgate)\\1')).toContain('invalid escape sequence');
    expect(reasonFor('northgate(?=motors)')).toContain('invalid perl operator');
  });

  it.each([
    ['.*', /matches empty text/],
    ['a*', /matches empty text/],
    ['(?:)', /matches empty text/],
    ['\\b', /matches empty text/],
    ['.', /matched 24 of 24 ordinary sample messages/],
    ['invoice', /'invoice' is a common word/],
    ['\\bInvoices?\\b', /'invoices' is a common word/],
    ['please find attached', /made of common words/],
    ['the|regards', /'the', 'regards' are common words/],
  ])('refuses %s, which would match nearly everything (§13.1)', (source, why) => {
    expect(reasonFor(source)).toMatch(why);
  });

  it('refuses a pattern that matches a large share of ordinary mail even with long literals (§13.1)', () => {
    expect(reasonFor('(?:ship|order|deliver|confirm|attach)')).toMatch(/ordinary sample messages/);
  });

  it('refuses empty and over-long patterns, saying what to do', () => {
    expect(reasonFor('   ')).toMatch(/^An empty pattern would match every message; type text/);
    expect(judgePattern(`PA-${'9'.repeat(MAX_PATTERN_CHARS - 3)}`, customerRules).ok).toBe(true);
    expect(reasonFor(`PA-${'9'.repeat(MAX_PATTERN_CHARS - 2)}`)).toMatch(
      /513 characters long and the limit is 512/,
    );
  });

  it('refuses a regex without four literal characters every match contains, and says what to type instead (issue 3)', () => {
    const reason = reasonFor('[A-Z]{2}-\\d{4}-\\d{4}');
    expect(reason).toMatch(
      /Add at least four letters or digits that every match contains, like an address or a reference/,
    );
    expect(reasonFor('\\d{6}')).toMatch(/no fixed text/);
    expect(reasonFor('[a-z]+@[a-z]+')).toMatch(/no fixed text/);
  });

  it('accepts narrow literals and regexes with a literal of four or more characters', () => {
    for (const ok of [
      'billing@origin\\.example',
      'billing@origin.example',
      'PA-2026-0901',
      'PA-2026-\\d{4}',
      'NGM-PO-\\d{5}',
      '[a-z0-9._-]+@northgatemotors\\.example',
      'Northgate Motors',
      'الحمراء للتجارة',
    ]) {
      expect(judgePattern(ok, customerRules), ok).toEqual({ ok: true, source: ok });
    }
  });

  it('drops habitual escapes re2 does not need, so the matcher can read the literal', () => {
    expect(judgePattern('PA\\-2026\\-0901', customerRules)).toEqual({ ok: true, source: 'PA-2026-0901' });
    expect(judgePattern('[a-z\\-]+@northgatemotors\\.example', customerRules)).toEqual({
      ok: true,
      source: '[a-z\\-]+@northgatemotors\\.example',
    });
  });

  it('trims surrounding spaces from what it keeps', () => {
    expect(judgePattern('  PA-2026-0901 ', customerRules)).toEqual({ ok: true, source: 'PA-2026-0901' });
  });

  it('judges catastrophic-backtracking shapes on their merits and never hangs (§13.3)', () => {
    // No literal: refused for that reason, not for a timeout.
    expect(reasonFor('(a+)+$')).toMatch(/no fixed text/);
    // With a literal: accepted, and re2 runs it over a hostile text in linear time.
    const source = '(northgate-?a+)+$';
    expect(judgePattern(source, customerRules).ok).toBe(true);
    const hostile = `northgate-${'a'.repeat(50_000)}!`;
    expect(new RE2(source, 'iu').test(hostile)).toBe(false);
  });

  it('refuses inline flags, which matching makes unnecessary', () => {
    expect(reasonFor('(?i)northgate')).toMatch(/already ignores case/);
  });

  it('lets kinds use freight words as cues but not filler words', () => {
    expect(judgePattern('invoice', kindRules).ok).toBe(true);
    expect(judgePattern('proof of delivery', kindRules).ok).toBe(true);
    expect(reasonFor('regards', kindRules)).toMatch(
      /^"regards" is not a usable cue: 'regards' is a common word/,
    );
  });
});

describe('patternMentions (§14)', () => {
  it('finds an identifier raw or regex-escaped, case-insensitively', () => {
    expect(patternMentions('billing@origin\\.example', 'billing@origin.example')).toBe(true);
    expect(patternMentions('billing@origin.example', 'BILLING@origin.example')).toBe(true);
    expect(patternMentions('^billing@origin\\.example$', 'Billing@Origin.Example')).toBe(true);
    expect(patternMentions('billing@origin\\.example', 'sales@origin.example')).toBe(false);
    expect(patternMentions('billing@origin\\.example', '')).toBe(false);
  });
});

// Loading a stored version skips the re2 compile of a plain literal (marked-entries.ts): every
// piece plainLiteral takes must compile on re2, so every text it takes does (a literal is a
// sequence of such pieces).
describe('plain literals compile on re2', () => {
  it('for every ASCII character plainLiteral takes as itself, and every escape it takes', () => {
    let taken = 0;
    for (let c = 0; c < 0x80; c++) {
      const ch = String.fromCharCode(c);
      if (plainLiteral(`ab${ch}cd`) !== null) {
        expect(re2Error(`ab${ch}cd`), JSON.stringify(ch)).toBeNull();
        taken++;
      }
      if (plainLiteral(`ab\\${ch}cd`) !== null) {
        expect(re2Error(`ab\\${ch}cd`), JSON.stringify(`\\${ch}`)).toBeNull();
        taken++;
      }
    }
    // Printable ASCII without the 12 metacharacters and the backslash, controls, and ~25 escapes.
    expect(taken).toBeGreaterThan(100);
  });
});

describe('a regex judged at absorption is remembered for the compile (issue 3, compile time)', () => {
  const asMark = (
    source: string,
  ): Mark & { collection: string; entry: string; mark: string; where: string; provenance: unknown } => ({
    collection: 'customers',
    entry: 'x',
    source,
    parts: ['from', 'subject', 'body', 'attachments'],
    mark: source,
    where: 'any',
    provenance: { activation: 1, taughtBy: 'p1', at: '2026-01-01T00:00:00.000Z' },
  });

  it('the compile of marks judged with one runtime analyses none of them again, and still matches as re2 does', () => {
    const runtime = createMatchingRuntime(); // a fresh process
    const judged = [
      'PA-2026-\\d{4}',
      'norgate\\s+motors',
      'billing@[a-z]+\\.origin\\.example',
      'invoice[ #:]*4471\\d{2}',
    ];
    for (const source of judged) expect(judgePattern(source, customerRules, runtime).ok, source).toBe(true);
    const afterJudging = runtime.analysesMade();
    const marks = [...judged, 'billing@origin\\.example'].map(asMark);
    const compiled = compileMatcher(marks, { runtime });
    expect(runtime.analysesMade()).toBe(afterJudging); // the plain literal needs no analysis either

    // A regex nobody judged here is analysed by the compile, once.
    compileMatcher([...marks, asMark('gulf\\s*trade\\s+llc')], { runtime });
    expect(runtime.analysesMade()).toBe(afterJudging + 1);

    const mail: MailMessage = {
      messageId: null,
      contentHash: 'h',
      from: { address: 'billing@north.origin.example', name: '' },
      replyTo: [],
      to: [],
      cc: [],
      subject: 'Pre-alert PA-2026-0901 for Norgate  Motors',
      date: null,
      body: 'Invoice #447102 attached. Copy to billing@origin.example.',
      attachments: [],
      isReply: false,
      isForward: false,
      isAutomated: false,
    };
    const show = (hits: ReturnType<typeof compiled.match>): string[] =>
      hits.map((h) => `${h.mark.source}|${h.part}|${h.text}`);
    const hits = show(compiled.match(mail));
    expect(hits).toEqual(show(createNaiveMatcher(marks).match(mail)));
    expect(hits.length).toBeGreaterThanOrEqual(5);
  });
});

describe('judgePattern: what is matched is what the person saw', () => {
  it.each([
    ['U+200B ZERO WIDTH SPACE', 'billing\u200b@origin\\.example', 8, 'an invisible character'],
    ['U+200C ZERO WIDTH NON-JOINER', 'north\u200cgate-desk', 6, 'an invisible character'],
    ['U+200D ZERO WIDTH JOINER', 'north\u200dgate-desk', 6, 'an invisible character'],
    ['U+FEFF ZERO WIDTH NO-BREAK SPACE', '\ufeffnorthgate-desk', 1, 'an invisible character'],
    ['U+00AD SOFT HYPHEN', 'north\u00adgate-desk', 6, 'an invisible character'],
    ['U+2060 WORD JOINER', 'northgate-desk\u2060', 15, 'an invisible character'],
    [
      'U+202E RIGHT-TO-LEFT OVERRIDE',
      'billing@origin\u202e\\.example',
      15,
      'a bidirectional control character',
    ],
    ['U+202A LEFT-TO-RIGHT EMBEDDING', '\u202anorthgate-desk', 1, 'a bidirectional control character'],
    ['U+2066 LEFT-TO-RIGHT ISOLATE', 'northgate\u2066-desk', 10, 'a bidirectional control character'],
    ['U+2069 POP DIRECTIONAL ISOLATE', 'northgate\u2069-desk', 10, 'a bidirectional control character'],
    ['U+200F RIGHT-TO-LEFT MARK', 'north\u200fgate-desk', 6, 'a bidirectional control character'],
    ['U+E0041 a format character', 'north\u{e0041}gate-desk', 6, 'an invisible character'],
    ['U+0007 a control character', 'north\u0007gate-desk', 6, 'an invisible character'],
  ])(
    'refuses a pattern holding %s, naming the code point and its position',
    (named, pattern, position, what) => {
      const reason = reasonFor(pattern);
      expect(reason).toContain(`it holds ${what}, ${named}`);
      expect(reason).toContain(`at position ${position}`);
      expect(reason).toContain(`<${named.split(' ')[0]!}>`); // shown visibly in the quoted pattern
      expect(reason).toMatch(
        /Delete it and type the text again; if it is really meant, write it visibly as \\u(?:[0-9A-F]{4}|\{[0-9A-F]{5}\})\./,
      );
      expect(judgePattern(pattern, kindRules).ok).toBe(false); // every learnable that matches text
    },
  );

  it('takes the same character written visibly as an escape', () => {
    expect(judgePattern('\\u200Cnorthgate-desk', customerRules)).toEqual({
      ok: true,
      source: '\\u200Cnorthgate-desk',
    });
  });

  it('keeps a pattern in NFC, so a decomposed é is the é mail is read with', () => {
    const decomposed = 'Soci\u0065\u0301t\u0065\u0301 G\u0065\u0301ne\u0301rale';
    const verdict = judgePattern(decomposed, customerRules);
    expect(verdict).toEqual({ ok: true, source: 'Soci\u00e9t\u00e9 G\u00e9n\u00e9rale' });
  });

  it.each([
    ['d\u0435sk-team@northgate\\.example', 'd\u0435sk', '\u0435', 2, 'U+0435', 'Cyrillic', 'Latin'],
    ['\u0441ompany-desk', '\u0441ompany', '\u0441', 1, 'U+0441', 'Cyrillic', 'Latin'],
    ['north\u03bfate-2026', 'north\u03bfate', '\u03bf', 6, 'U+03BF', 'Greek', 'Latin'],
    [
      '\u043f\u0440\u0438\u0432\u0435\u0442-po\u043a\u0443\u043f\u043a\u0430',
      'po\u043a\u0443\u043f\u043a\u0430',
      'p',
      8,
      'U+0070',
      'Latin',
      'Cyrillic',
    ],
  ])(
    'refuses the look-alike %j, naming the odd letter, its code point and script',
    (pattern, word, c, position, cp, script, main) => {
      const reason = reasonFor(pattern);
      expect(reason).toContain(
        `the word "${word}" mixes scripts: "${c}" at position ${position} is ${cp}, a ${script} letter among ${main} ones`,
      );
      expect(reason).toContain('Type the word in one script.');
    },
  );

  it.each([
    'فاتورة northgate',
    'ΑΒΓΔ-2026-0901',
    'северный-склад',
    'd\\u0435sk-team@northgate\\.example',
    'Müller-Spedition',
  ])('takes %j: words in one script each, side by side, or an escape', (pattern) => {
    expect(judgePattern(pattern, customerRules).ok).toBe(true);
  });
});
