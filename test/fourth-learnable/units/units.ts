/**
 * A fourth learnable that lives only here: `units`, which unit a message's weights are written in.
 * Each entry is a unit of weight (kilogram, pound) carrying the symbols it has been seen written as
 * ("KGS", "lbs") and its system, a `choice` field (metric or imperial). Its lesson value is
 * `{ symbol, system }`: no pattern, no where, no marks handed to the matcher; its reader finds
 * quantities ("1,200 KGS") in the subject and body itself and compares the written symbol with the
 * ones each unit carries, as literal words.
 *
 * It exists to prove issue 13: a learnable with its own notion of a lesson goes through triage, the
 * question and its teach block, a lesson, pinning, show-back, dry-run and erase with no line of
 * src/ naming it. Owns everything about units; nothing outside this folder knows it.
 */
import { canonicalJson, isPlainObject } from '../../../src/domain/json.ts';
import {
  decidedReport,
  type Absorption,
  type EntryContent,
  type Learnable,
  type LearnableDescriptor,
  type LearnedRule,
  type LessonValue,
  type Provenance,
  type Removal,
  type Reader,
  type Reading,
} from '../../../src/domain/learnables/index.ts';
import type { MailMessage } from '../../../src/domain/mail/index.ts';

export const UNITS = 'units';
const SYSTEMS = ['metric', 'imperial'] as const;
type System = (typeof SYSTEMS)[number];

interface WrittenSymbol {
  readonly symbol: string;
  readonly added: Provenance;
}
interface Unit {
  readonly system: System;
  readonly symbols: readonly WrittenSymbol[];
}

/** What this learnable shows (§11): the unit read, and the quantities it read it from. */
export interface UnitsReport {
  readonly collection: string;
  readonly settled: boolean;
  readonly winner?: string;
  readonly reads: string;
  /** Every quantity found: "1,200 KGS", with the unit its symbol is known as, or null. */
  readonly quantities: readonly {
    readonly text: string;
    readonly symbol: string;
    readonly unit: string | null;
  }[];
  readonly decidedBy?: 'rules' | 'nobody' | 'person';
  readonly answeredBy?: string;
}

function descriptor(): LearnableDescriptor {
  return {
    collection: UNITS,
    entry: 'unit',
    skills: ['triage_inbound', 'recheck_message'],
    teaches: 'which unit of weight a message writes its quantities in',
    how: 'Each unit carries the symbols it is written as. A quantity is a number followed by a word; the unit whose symbols hold that word is read. One unit read, it is settled; none or two, a person says which.',
    decidedBy: 'rules',
    lessonFields: [
      { name: 'symbol', label: 'Written as', kind: 'text', help: 'The word after the number, e.g. KGS.' },
      { name: 'system', label: 'System', kind: 'choice', choices: [...SYSTEMS], default: 'metric' },
    ],
  };
}

const key = (symbol: string): string => symbol.trim().toLowerCase();

function parse(value: LessonValue): { symbol: string; system: System } | { refused: string } {
  if (!isPlainObject(value)) return { refused: 'A unit lesson is an object with symbol and system.' };
  const extra = Object.keys(value).filter((k) => k !== 'symbol' && k !== 'system');
  if (extra.length > 0)
    return {
      refused: `"${extra.join('", "')}" is not a field of a unit lesson; the fields are symbol and system.`,
    };
  const { symbol, system = 'metric' } = value as { symbol?: unknown; system?: unknown };
  if (typeof symbol !== 'string' || !/^[A-Za-z]{1,6}$/.test(symbol.trim()))
    return {
      refused: `"${String(symbol)}" is not a unit symbol: write the word after the number, 1 to 6 letters (e.g. KGS).`,
    };
  if (typeof system !== 'string' || !(SYSTEMS as readonly string[]).includes(system))
    return { refused: `"${String(system)}" is not a system: choose metric or imperial.` };
  return { symbol: symbol.trim(), system: system as System };
}

function decode(content: unknown): Unit | string {
  if (
    !isPlainObject(content) ||
    !(SYSTEMS as readonly unknown[]).includes(content.system) ||
    !Array.isArray(content.symbols)
  )
    return 'a unit holds { system, symbols: [{ symbol, added }] }';
  return content as unknown as Unit;
}
function mustDecode(content: EntryContent): Unit {
  const u = decode(content);
  if (typeof u === 'string') throw new Error(u);
  return u;
}
function encode(u: Unit): EntryContent {
  return JSON.parse(JSON.stringify(u)) as EntryContent;
}
const phrase = (unit: string, symbol: string, system: string): string =>
  `reads '${symbol}' as ${unit} (${system})`;

/** Quantities in the subject and body: a number, then a word of 1 to 6 letters. */
function quantities(message: MailMessage): { text: string; symbol: string }[] {
  const out: { text: string; symbol: string }[] = [];
  for (const m of `${message.subject}\n${message.body}`.matchAll(/\b(\d[\d.,]*) ?([A-Za-z]{1,6})\b/g))
    out.push({ text: m[0], symbol: m[2]! });
  return out;
}

function unitsReader(): Reader {
  const shownAs = 'unit';
  const asReading = (r: UnitsReport, likely: readonly string[]): Reading => ({
    collection: UNITS,
    shownAs,
    settled: r.settled,
    winner: r.settled ? (r.winner ?? null) : null,
    settledCount: r.settled ? 1 : 0,
    decision: { settled: r.settled, winner: r.winner ?? null },
    likely,
    report: r,
    line: r.reads,
  });
  return {
    shownAs,
    reads: [],
    read({ entries, message }) {
      const known = new Map<string, string>();
      for (const [unit, content] of entries ?? []) {
        for (const s of mustDecode(content).symbols) known.set(key(s.symbol), unit);
      }
      const found = quantities(message).map((q) => ({ ...q, unit: known.get(key(q.symbol)) ?? null }));
      const units = [...new Set(found.flatMap((q) => (q.unit === null ? [] : [q.unit])))];
      // Nothing to read a unit from: nothing to decide, nothing to ask.
      if (found.length === 0)
        return asReading(
          { collection: UNITS, settled: true, reads: 'No quantities in it.', quantities: [] },
          [],
        );
      if (units.length === 1)
        return asReading(
          {
            collection: UNITS,
            settled: true,
            winner: units[0]!,
            reads: `Weights are in ${units[0]!}, on ${found[0]!.text}`,
            quantities: found,
          },
          units,
        );
      const reads =
        units.length === 0
          ? `No unit I know is written as ${[...new Set(found.map((q) => `'${q.symbol}'`))].join(' or ')}`
          : `${units.join(' and ')} are both written here`;
      return asReading({ collection: UNITS, settled: false, reads, quantities: found }, units);
    },
    question(reading) {
      return `Which unit are these weights in? ${(reading.report as UnitsReport).reads}.`;
    },
    suggest(reading) {
      const r = reading.report as UnitsReport;
      const unknown = r.quantities.find((q) => q.unit === null);
      if (unknown === undefined)
        return Promise.resolve({ none: 'No suggestion: every symbol here is already known.' });
      // §8: never wider than the evidence: the one symbol written, nothing about the system.
      return Promise.resolve({
        suggestion: {
          collection: UNITS,
          value: { symbol: unknown.symbol },
          suggestionLabel: `the word after the number in "${unknown.text}"`,
        },
      });
    },
    // The §11 'decided by a person' the agent's own learnables use, from the reading kit.
    decided: (reading, decision) => decidedReport(reading, decision),
  };
}

export function createUnitsLearnable(): Learnable {
  const learnable: Learnable = {
    collection: UNITS,
    entryNoun: 'unit',
    createsEntries: true,
    descriptor,

    absorb(_entry, content, value, stamp): Absorption {
      const p = parse(value);
      if ('refused' in p) return { outcome: 'refused', reason: p.refused };
      const unit = content === undefined ? { system: p.system, symbols: [] } : mustDecode(content);
      const describes = phrase(_entry, p.symbol, unit.system);
      if (unit.system !== p.system)
        return {
          outcome: 'refused',
          reason: `${_entry} is ${unit.system}, not ${p.system}: teach ${p.symbol} to a ${p.system} unit.`,
        };
      if (unit.symbols.some((s) => key(s.symbol) === key(p.symbol)))
        return { outcome: 'unchanged', describes };
      const added = { activation: stamp.activation, taughtBy: stamp.taughtBy, at: stamp.at };
      return {
        outcome: 'learned',
        content: encode({ ...unit, symbols: [...unit.symbols, { symbol: p.symbol, added }] }),
        describes,
      };
    },

    describe(value, entryName): string {
      const p = parse(value);
      return 'refused' in p
        ? `nothing usable (${p.refused})`
        : phrase(entryName ?? 'this unit', p.symbol, p.system);
    },

    label: (entryName) => entryName,

    revert(_entry, content, value, activation): Removal {
      const p = parse(value);
      if ('refused' in p) return { outcome: 'unchanged' };
      const unit = mustDecode(content);
      const kept = unit.symbols.filter(
        (s) => !(s.added.activation === activation && key(s.symbol) === key(p.symbol)),
      );
      if (kept.length === unit.symbols.length) return { outcome: 'unchanged' };
      return { outcome: 'changed', content: kept.length === 0 ? null : encode({ ...unit, symbols: kept }) };
    },

    mentions: (content, identifier) =>
      mustDecode(content).symbols.some((s) => key(s.symbol) === key(identifier)),

    erase(content, identifier): Removal {
      const unit = mustDecode(content);
      const kept = unit.symbols.filter((s) => key(s.symbol) !== key(identifier));
      if (kept.length === unit.symbols.length) return { outcome: 'unchanged' };
      return { outcome: 'changed', content: kept.length === 0 ? null : encode({ ...unit, symbols: kept }) };
    },

    rules(entryName, content): readonly LearnedRule[] {
      const unit = mustDecode(content);
      return unit.symbols.map((s) => ({
        describes: phrase(entryName, s.symbol, unit.system),
        provenance: s.added,
      }));
    },

    marks: () => [],

    validateContent(_entry, content) {
      const u = decode(content);
      if (typeof u === 'string') return { ok: false, reason: u };
      const encoded = encode(u);
      canonicalJson(encoded);
      return { ok: true, content: encoded };
    },
  };
  return { ...learnable, reader: unitsReader() };
}
