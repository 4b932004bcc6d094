/**
 * The one contract suite every learnable passes (STYLE.md: `runLearnableContract({ make })`),
 * including one whose value has no `pattern` key. It proves the Learnable contract from outside,
 * treating values and content as opaque, exactly as the authority does (§9): absorption outcomes
 * (§10.1, §10.2), describes (§10.4), revert, erase (§14), rules with provenance (§13.4), marks
 * compiled at absorption (§13.3), content round-trips and immutability (§10.3), and its reader:
 * a JSON reading it settles once taught, its question, a suggestion within its lesson
 * fields (§8), and a person's decision, all through the reader alone.
 *
 * Test support only: imported by *.test.ts files, never by product code.
 */
import RE2 from 're2';
import { describe, expect, it } from 'vitest';
import { canonicalJson, deepFreeze } from '../json.ts';
import { MAIL_PARTS } from '../mail/index.ts';
import { createNaiveMatcher } from '../matching/index.ts';
import type { Absorption, EntryContent, Learnable, LearnableSettings, LessonValue } from './learnable.ts';
import { stamp, type Contract, type LearnableContractOptions } from './learnable-options.contract.ts';

export type { LearnableContractOptions };

export function runLearnableContract(o: LearnableContractOptions): void {
  const settings: LearnableSettings = o.settings ?? { identificationMargin: 0.5 };
  const learn: Contract['learn'] = (l, content, value, activation) => {
    const r = l.absorb(o.entryName, content, value, stamp(activation));
    if (r.outcome !== 'learned') throw new Error(`expected learned, got ${JSON.stringify(r)}`);
    return r.content;
  };
  const both: Contract['both'] = (l) => {
    const first = learn(l, undefined, o.validValue, 1);
    return { first, second: learn(l, first, o.otherValidValue, 2) };
  };
  const c: Contract = { o, settings, learn, both };
  describe(`${o.name}: the Learnable contract`, () => {
    descriptorSuite(c);
    absorbSuite(c);
    rulesSuite(c);
    revertSuite(c);
    eraseSuite(c);
    readerSuite(c);
  });
}

function descriptorSuite(c: Contract): void {
  const { o, settings } = c;
  describe('descriptor (§6.2, §6.3)', () => {
    it('names its collection and entry, and says how it decides today (§6.2)', () => {
      const l = o.make();
      const d = l.descriptor(settings);
      expect(d.collection).toBe(l.collection);
      expect(d.entry).toBe(l.entryNoun);
      expect(d.teaches.trim()).not.toBe('');
      expect(d.how.trim().length).toBeGreaterThan(40);
      expect(d.how).not.toMatch(/TODO|TBD|lorem|placeholder|\{|\}/i);
      expect(['rules', 'model', 'hybrid']).toContain(d.decidedBy);
    });

    it('declares lesson fields with unique names, real labels and sound choices (§6.3)', () => {
      const d = o.make().descriptor(settings);
      expect(d.lessonFields.length).toBeGreaterThan(0);
      const names = d.lessonFields.map((f) => f.name);
      expect(new Set(names).size).toBe(names.length);
      for (const f of d.lessonFields) {
        expect(f.label.trim()).not.toBe('');
        if (f.kind === 'choice') {
          expect(f.choices?.length ?? 0).toBeGreaterThan(0);
          if (f.default !== undefined) expect(f.choices).toContain(f.default);
        }
      }
    });

    it("uses only its declared lesson fields as the value's keys (§9)", () => {
      const names = o
        .make()
        .descriptor(settings)
        .lessonFields.map((f) => f.name);
      for (const v of [o.validValue, o.otherValidValue]) {
        for (const key of Object.keys(v)) expect(names).toContain(key);
      }
    });

    it('is plain JSON', () => {
      const d = o.make().descriptor(settings);
      expect(JSON.parse(JSON.stringify(d))).toEqual(d);
    });

    it('asks to create an entry only through a lesson field its card declares (issue 12.3, §6.3)', () => {
      const l = o.make();
      if (l.creation === undefined) return; // any lesson may create an entry here
      const fields = l.descriptor(settings).lessonFields;
      // The words a refused typo hears name a field a blind client renders.
      expect(fields.some((f) => l.creation!.how.includes(`"${f.label}"`))).toBe(true);
      expect(o.createValue).toBeDefined();
      const create = o.createValue!;
      for (const key of Object.keys(create)) expect(fields.map((f) => f.name)).toContain(key);
      // A lesson that does not ask never creates; one that asks does, and learns what it teaches.
      expect(l.creation.asks(o.validValue)).toBe(false);
      expect(l.creation.asks(o.otherValidValue)).toBe(false);
      expect(l.creation.asks(create)).toBe(true);
      expect(l.absorb(o.entryName, undefined, create, stamp(1)).outcome).toBe('learned');
      // A value it refuses is not stopped as a typo: absorb gives its own reason (§10.1).
      expect(l.creation.asks(o.invalidValue)).toBe(true);
    });
  });
}

function absorbSuite(c: Contract): void {
  const { o, settings, learn, both } = c;
  describe('absorb (§10.1, §10.2)', () => {
    it('learns a valid value and phrases it the way describe() does (§10.4)', () => {
      const l = o.make();
      const r = l.absorb(o.entryName, undefined, o.validValue, stamp(1));
      if (!l.createsEntries) {
        expect(r.outcome).toBe('refused');
        return;
      }
      expect(r.outcome).toBe('learned');
      if (r.outcome !== 'learned') return;
      expect(r.describes).toBe(l.describe(o.validValue, o.entryName));
      expect(r.describes.trim()).not.toBe('');
    });

    it('says in its own words what a value means (§10.4)', () => {
      const l = o.make();
      const d = l.describe(o.validValue, o.entryName);
      if (o.expectedDescribes !== undefined) expect(d).toBe(o.expectedDescribes);
      expect(d).not.toMatch(/undefined|\[object Object\]|null/);
      // Not composed from field names by someone who did not understand them.
      expect(d).not.toMatch(new RegExp(`${o.make().collection}\\.\\S+ set`));
      expect(l.describe(o.validValue, o.entryName)).toBe(d);
      expect(l.describe(o.otherValidValue, o.entryName)).not.toBe(d);
    });

    it('reports the same knowledge again as unchanged, not as an error (§10.2)', () => {
      const l = o.make();
      const content = learn(l, undefined, o.validValue, 1);
      const again = l.absorb(o.entryName, content, o.validValue, stamp(2));
      expect(again).toEqual({ outcome: 'unchanged', describes: l.describe(o.validValue, o.entryName) });
    });

    it('reports the same knowledge written differently as unchanged (§10.2)', () => {
      if (o.equivalentValue === undefined) return;
      const l = o.make();
      const content = learn(l, undefined, o.validValue, 1);
      expect(l.absorb(o.entryName, content, o.equivalentValue, stamp(2)).outcome).toBe('unchanged');
    });

    it('learns a second value into the same entry and keeps the first', () => {
      const l = o.make();
      const { first, second } = both(l);
      expect(l.rules(o.entryName, second).length).toBe(l.rules(o.entryName, first).length + 1);
      expect(l.absorb(o.entryName, second, o.validValue, stamp(3)).outcome).toBe('unchanged');
      expect(l.absorb(o.entryName, second, o.otherValidValue, stamp(3)).outcome).toBe('unchanged');
    });

    it('refuses an invalid value with a reason in words, never a bare error (§10.1)', () => {
      const l = o.make();
      const r = l.absorb(o.entryName, undefined, o.invalidValue, stamp(1));
      expect(r.outcome).toBe('refused');
      if (r.outcome !== 'refused') return;
      expect(r.reason.length).toBeGreaterThan(15);
      expect(r.reason).toMatch(/[a-z]{3,} [a-z]{2,}/i);
      expect(r.reason).not.toMatch(/invalid value|bad request|undefined|\[object Object\]/i);
      // And into an existing entry, leaving it alone.
      const content = learn(l, undefined, o.validValue, 1);
      expect(l.absorb(o.entryName, content, o.invalidValue, stamp(2)).outcome).toBe('refused');
    });

    it('never throws for values of the wrong shape; it refuses them (§10.1)', () => {
      const l = o.make();
      const names = l.descriptor(settings).lessonFields.map((f) => f.name);
      const hostile: unknown[] = [
        {},
        { unknownKey: 'x' },
        { pattern: 'x', column: 'y', cue: 'z', where: 'nowhere' },
        ...names.flatMap((n) => [
          { [n]: 42 },
          { [n]: {} },
          { [n]: ['a'] },
          { [n]: true },
          { [n]: '' },
          { [n]: '   ' },
        ]),
        ...names.map((n) => ({ ...o.validValue, [n]: { nested: o.validValue } })),
        null,
        [],
        'text',
      ];
      const content = learn(l, undefined, o.validValue, 1);
      for (const value of hostile) {
        for (const into of [undefined, content]) {
          let r: Absorption | undefined;
          expect(() => {
            r = l.absorb(o.entryName, into, value as LessonValue, stamp(2));
          }, JSON.stringify(value)).not.toThrow();
          expect(r?.outcome, JSON.stringify(value)).toBe('refused');
          expect(() => l.describe(value as LessonValue, o.entryName)).not.toThrow();
        }
      }
    });

    it('never mutates the content or the value it is given (§10.3)', () => {
      const l = o.make();
      const value = deepFreeze(structuredClone(o.otherValidValue));
      const content = deepFreeze(learn(l, undefined, o.validValue, 1));
      const before = canonicalJson(content);
      const r = l.absorb(o.entryName, content, value, stamp(2));
      expect(r.outcome).toBe('learned');
      expect(canonicalJson(content)).toBe(before);
      expect(value).toEqual(o.otherValidValue);
    });

    it('produces plain JSON content that survives a round trip through validateContent', () => {
      const l = o.make();
      const { second } = both(l);
      const encoded = canonicalJson(second);
      const parsed: unknown = JSON.parse(encoded);
      const v = l.validateContent(o.entryName, parsed);
      expect(v.ok).toBe(true);
      if (!v.ok) return;
      expect(canonicalJson(v.content)).toBe(encoded);
      expect(l.rules(o.entryName, v.content)).toEqual(l.rules(o.entryName, second));
    });

    it('rejects malformed content with a reason', () => {
      const l = o.make();
      for (const bad of [null, 'text', 42, [], { unexpected: true }]) {
        const v = l.validateContent(o.entryName, bad);
        expect(v.ok, JSON.stringify(bad)).toBe(false);
        if (!v.ok) expect(v.reason.trim()).not.toBe('');
      }
    });
  });
}

function rulesSuite(c: Contract): void {
  const { o, both } = c;
  describe('rules and marks (§13.3, §13.4)', () => {
    it('lists every rule phrased by the learnable, with who added it and when (§13.4)', () => {
      const l = o.make();
      const { second } = both(l);
      const rules = l.rules(o.entryName, second);
      const describes = rules.map((r) => r.describes);
      expect(describes).toContain(l.describe(o.validValue, o.entryName));
      expect(describes).toContain(l.describe(o.otherValidValue, o.entryName));
      const byActivation = new Map(rules.map((r) => [r.describes, r.provenance]));
      expect(byActivation.get(l.describe(o.validValue, o.entryName))).toEqual(stamp(1));
      expect(byActivation.get(l.describe(o.otherValidValue, o.entryName))).toEqual(stamp(2));
    });

    it(
      o.matchesText
        ? 'hands the matcher marks that compile on re2 and name real parts (§13.3)'
        : 'hands the matcher no marks',
      () => {
        const l = o.make();
        const { second } = both(l);
        const marks = l.marks(o.entryName, second);
        if (!o.matchesText) {
          expect(marks).toEqual([]);
          return;
        }
        expect(marks.length).toBe(l.rules(o.entryName, second).length);
        for (const m of marks) {
          expect(() => new RE2(m.source, 'iu')).not.toThrow();
          expect(m.parts.length).toBeGreaterThan(0);
          for (const p of m.parts) expect(MAIL_PARTS).toContain(p);
          expect(m.mark.trim()).not.toBe('');
          expect(m.where.trim()).not.toBe('');
        }
        expect(marks.map((m) => m.provenance.activation).sort()).toEqual([1, 2]);
      },
    );
  });
}

function revertSuite(c: Contract): void {
  const { o, learn, both } = c;
  describe('revert', () => {
    it('takes back exactly what one activation added and keeps the rest', () => {
      const l = o.make();
      const { first, second } = both(l);
      const r = l.revert(o.entryName, second, o.otherValidValue, 2);
      expect(r.outcome).toBe('changed');
      if (r.outcome !== 'changed' || r.content === null) throw new Error('expected content');
      expect(canonicalJson(r.content)).toBe(canonicalJson(first));

      const r1 = l.revert(o.entryName, second, o.validValue, 1);
      if (r1.outcome !== 'changed' || r1.content === null) throw new Error('expected content');
      const describes = l.rules(o.entryName, r1.content).map((x) => x.describes);
      expect(describes).toContain(l.describe(o.otherValidValue, o.entryName));
      expect(describes).not.toContain(l.describe(o.validValue, o.entryName));
    });

    it('removes the entry when the reverted activation created it and nothing else remains', () => {
      const l = o.make();
      const first = learn(l, undefined, o.validValue, 1);
      expect(l.revert(o.entryName, first, o.validValue, 1)).toEqual({ outcome: 'changed', content: null });
    });

    it('changes nothing when that activation did not add the value', () => {
      const l = o.make();
      const { second } = both(l);
      expect(l.revert(o.entryName, second, o.validValue, 2)).toEqual({ outcome: 'unchanged' });
      expect(l.revert(o.entryName, second, o.otherValidValue, 7)).toEqual({ outcome: 'unchanged' });
      expect(l.revert(o.entryName, second, o.invalidValue, 1)).toEqual({ outcome: 'unchanged' });
    });

    it('never mutates the content it reverts', () => {
      const l = o.make();
      const second = deepFreeze(both(l).second);
      const before = canonicalJson(second);
      l.revert(o.entryName, second, o.validValue, 1);
      expect(canonicalJson(second)).toBe(before);
    });
  });
}

function eraseSuite(c: Contract): void {
  const { o, learn, both } = c;
  describe('mentions and erase (§14)', () => {
    it('finds an identifier case-insensitively', () => {
      const l = o.make();
      const { first, second } = both(l);
      expect(l.mentions(first, o.identifier)).toBe(true);
      expect(l.mentions(second, o.identifier.toUpperCase())).toBe(true);
      expect(l.mentions(second, 'nobody-at-all@nowhere.invalid')).toBe(false);
      expect(l.mentions(second, '')).toBe(false);
    });

    it('erases what holds the identifier and keeps the rest', () => {
      const l = o.make();
      const { second } = both(l);
      const r = l.erase(second, o.identifier);
      if (r.outcome !== 'changed' || r.content === null)
        throw new Error(`expected content, got ${JSON.stringify(r)}`);
      expect(l.mentions(r.content, o.identifier)).toBe(false);
      expect(l.rules(o.entryName, r.content).map((x) => x.describes)).toContain(
        l.describe(o.otherValidValue, o.entryName),
      );
      expect(l.validateContent(o.entryName, r.content).ok).toBe(true);
    });

    it('erases the entry when nothing would remain, and leaves unrelated entries alone', () => {
      const l = o.make();
      const first = learn(l, undefined, o.validValue, 1);
      const r = l.erase(first, o.identifier);
      expect(r.outcome).toBe('changed');
      if (r.outcome === 'changed' && r.content !== null) {
        // What remains (a name) must not hold the identifier.
        expect(l.mentions(r.content, o.identifier)).toBe(false);
        expect(l.rules(o.entryName, r.content)).toEqual([]);
      }
      const other = learn(l, undefined, o.otherValidValue, 2);
      expect(l.erase(other, o.identifier)).toEqual({ outcome: 'unchanged' });
    });
  });
}

function readerSuite(c: Contract): void {
  const { o, settings, learn } = c;
  describe('reader (issue 13, §8, §11)', () => {
    function readWith(l: Learnable, content: EntryContent | undefined) {
      const entries = new Map(content === undefined ? [] : [[o.entryName, content]]);
      const marks = [...entries].flatMap(([entry, c]) =>
        l.marks(entry, c).map((m) => ({ ...m, collection: l.collection, entry })),
      );
      return l.reader!.read({
        entries,
        hits: createNaiveMatcher(marks).match(o.readerMessage),
        message: o.readerMessage,
        settings,
        resolvePerson: (id) => id,
        earlier: new Map(),
      });
    }

    it('supplies a reader that names where its report is shown and what it reads first', () => {
      const reader = o.make().reader;
      expect(reader).toBeDefined();
      expect(reader!.shownAs).toMatch(/^[a-z][A-Za-z]*$/);
      expect(reader!.reads.every((c) => typeof c === 'string')).toBe(true);
    });

    it('reads the message as settled once taught, in plain JSON (§11)', () => {
      const l = o.make();
      const taught = readWith(l, learn(l, undefined, o.validValue, 1));
      expect(taught.collection).toBe(l.collection);
      expect(taught.shownAs).toBe(l.reader!.shownAs);
      expect(taught.settled).toBe(true);
      if (taught.winner !== undefined) expect(taught.winner).toBe(o.entryName);
      expect(() => canonicalJson(taught.report as never)).not.toThrow();
      expect(() => canonicalJson(taught.decision as never)).not.toThrow();
    });

    it('is unsettled with nothing taught, and asks in words with a suggestion inside its lesson fields (§8)', async () => {
      const l = o.make();
      const untaught = readWith(l, undefined);
      expect(untaught.settled).toBe(false);
      const reader = l.reader!;
      if (reader.question === undefined) return; // this collection never asks
      // A question in words that says what was seen (before or after it), and never says twice
      // that it cannot tell.
      const asked = reader.question(untaught);
      expect(asked).toMatch(/\S.*\?/s);
      expect(asked).toMatch(/[.!?]$/);
      expect(asked.match(/can(?:'|no|’)t tell/gi)?.length ?? 0).toBeLessThanOrEqual(1);
      if (reader.suggest === undefined) return;
      // An empty corpus: nothing read yet.
      const none = {
        total: () => Promise.resolve(0),
        matching: () =>
          Promise.resolve({
            matches: 0,
            settled: new Map<string, number>(),
            spread: new Map(),
            undecidedSenders: [],
          }),
      };
      const history = () => Promise.resolve({ messages: 0, settled: new Map<string, number>() });
      const outcome = await reader.suggest(untaught, {
        message: o.readerMessage,
        entries: undefined,
        probe: { ...none, sender: history, domain: history },
        settings,
        namedElsewhere: () => Promise.resolve([]),
      });
      if ('suggestion' in outcome) {
        const fields = new Set(l.descriptor(settings).lessonFields.map((f) => f.name));
        expect(Object.keys(outcome.suggestion.value).every((k) => fields.has(k))).toBe(true);
        expect(outcome.suggestion.collection).toBe(l.collection);
      } else {
        expect(outcome.none).toMatch(/\w/);
      }
    });

    it('marks a decision made by a person, keeping the reading otherwise (§11)', () => {
      const l = o.make();
      const reader = l.reader!;
      if (reader.decided === undefined) return;
      const untaught = readWith(l, undefined);
      const decided = reader.decided(untaught, { entry: o.entryName, answeredBy: 'person:1', at: 'now' });
      expect(decided.collection).toBe(untaught.collection);
      expect(decided.report).toMatchObject({ winner: o.entryName, decidedBy: 'person' });
      expect(reader.decided(untaught, undefined).report).toMatchObject({ decidedBy: 'nobody' });
    });
  });
}
