/**
 * The shared engine of learnables whose entries carry a human label and a list of text marks,
 * each looked for in one part of a message (customers' marks, kinds' cues). Each learnable keeps
 * its own vocabulary (value keys, content keys, where-choices, wording); this module only does
 * the bookkeeping they share: parsing a value, absorbing idempotently (§10.2), revert, erase (§14),
 * rules with provenance (§13.4) and the marks handed to the matcher (§13.3).
 *
 * Does not own: matching or scoring mail (src/domain/triage/), nor the decision rule's prose
 * (each learnable generates its own `how`).
 */
import { canonicalJson, isPlainObject, type JsonObject } from '../json.ts';
import { MAIL_PARTS, type MailPart } from '../mail/index.ts';
import type {
  Absorption,
  EntryContent,
  Learnable,
  LearnableDescriptor,
  LearnableSettings,
  LearnedRule,
  LessonValue,
  MarkSource,
  Provenance,
  Removal,
} from './learnable.ts';
import { plainLiteral } from '../matching/index.ts';
import { MAX_PATTERN_CHARS, judgePattern, patternMentions, re2Error, type PatternRules } from './pattern.ts';

/** Longest entry label accepted, in characters. */
export const MAX_LABEL_CHARS = 200;

export interface MarkedVocabulary {
  readonly collection: string;
  readonly entryNoun: string;
  /** Lesson-value key of the text to match ("pattern", "cue"). */
  readonly textKey: string;
  /** Content key of the list of marks ("marks", "cues"). */
  readonly listKey: string;
  /** Permitted `where` values, in declaration order; 'any' means every part. */
  readonly whereChoices: readonly string[];
  readonly defaultWhere: string;
  readonly patternRules: PatternRules;
  /** The §10.4 phrase for one mark, e.g. `matches 'x' in the from`. */
  phraseMark(text: string, where: string): string;
  /** A label for a new entry taught without one, from its name (import only; a taught lesson must name it). */
  labelFromName(entryName: string): string;
  /** The label of the lesson field that names a new entry (its `label` field, §6.3). */
  readonly newEntryField: string;
  /** What the person should type, for "nothing to learn" refusals. */
  readonly nothingToLearn: string;
  descriptor(settings: LearnableSettings): LearnableDescriptor;
}

interface Mark {
  readonly text: string;
  readonly where: string;
  readonly added: Provenance;
}

interface FormerLabel {
  readonly label: string;
  readonly added: Provenance;
}

interface Entry {
  readonly label: string;
  readonly labelAdded: Provenance;
  /** Labels this entry had before, oldest first (kept so a rename can be reverted exactly). */
  readonly formerLabels: readonly FormerLabel[];
  readonly marks: readonly Mark[];
}

interface ParsedValue {
  readonly text?: string;
  readonly where: string;
  readonly label?: string;
}

const LABEL_KEY = 'label';
/** What a label becomes when it held an erased identifier and no earlier name is clean (§14). */
export const ERASED_LABEL = '[erased]';
const WHERE_KEY = 'where';

export function createMarkedLearnable(
  v: MarkedVocabulary,
): Learnable & { label(entryName: string, content: EntryContent): string } {
  const valueKeys = [v.textKey, WHERE_KEY, LABEL_KEY];

  /** §10.1: judge a value; the reason is for the person who typed it. */
  function parse(value: LessonValue): ParsedValue | { refused: string } {
    if (!isPlainObject(value))
      return { refused: `A ${v.entryNoun} lesson must be an object with ${listWords(valueKeys)}.` };
    const unknown = Object.keys(value).filter((k) => !valueKeys.includes(k) && value[k] !== undefined);
    if (unknown.length > 0) {
      return {
        refused: `${listWords(unknown.map((k) => `"${k}"`))} ${unknown.length === 1 ? 'is not a field' : 'are not fields'} of a ${v.entryNoun} lesson; the fields are ${listWords(valueKeys)}.`,
      };
    }
    const rawText = value[v.textKey];
    const rawWhere = value[WHERE_KEY];
    const rawLabel = value[LABEL_KEY];
    for (const [key, raw] of [
      [v.textKey, rawText],
      [WHERE_KEY, rawWhere],
      [LABEL_KEY, rawLabel],
    ] as const) {
      if (raw !== undefined && raw !== null && typeof raw !== 'string') {
        return { refused: `"${key}" must be text, not ${describeType(raw)}.` };
      }
    }
    const label = typeof rawLabel === 'string' && rawLabel.trim() !== '' ? rawLabel.trim() : undefined;
    if (label !== undefined) {
      if (label.length > MAX_LABEL_CHARS) {
        return {
          refused: `The ${v.entryNoun}'s name is ${label.length} characters long; the limit is ${MAX_LABEL_CHARS}.`,
        };
      }
      // eslint-disable-next-line no-control-regex
      if (/[\u0000-\u001f\u007f]/.test(label)) {
        return {
          refused: `The ${v.entryNoun}'s name "${label}" contains a line break or control character; type it on one line.`,
        };
      }
    }
    const text = typeof rawText === 'string' ? rawText : undefined;
    // A client renders every field (§6.3), so a label-only lesson arrives with an empty text box.
    if (text === undefined || (text.trim() === '' && label !== undefined)) {
      if (label === undefined) return { refused: v.nothingToLearn };
      return { where: v.defaultWhere, label };
    }
    const whereText =
      typeof rawWhere === 'string' && rawWhere.trim() !== '' ? rawWhere.trim().toLowerCase() : v.defaultWhere;
    if (!v.whereChoices.includes(whereText)) {
      return {
        refused: `"${String(rawWhere)}" is not a place to look; choose one of ${listWords(v.whereChoices)}.`,
      };
    }
    const verdict = judgePattern(text, v.patternRules);
    if (!verdict.ok) return { refused: verdict.reason };
    return label === undefined
      ? { text: verdict.source, where: whereText }
      : { text: verdict.source, where: whereText, label };
  }

  function phrase(p: ParsedValue): string {
    const parts: string[] = [];
    if (p.text !== undefined) parts.push(v.phraseMark(p.text, p.where));
    if (p.label !== undefined) parts.push(`is called '${p.label}'`);
    return parts.join(', and ');
  }

  function sameMark(a: { text: string; where: string }, b: { text: string; where: string }): boolean {
    return a.where === b.where && a.text.toLowerCase() === b.text.toLowerCase();
  }

  /** Shape check; `compile` also compiles every mark on re2 (for import and load, not per call). */
  function decode(entryName: string, content: unknown, compile = false): Entry | string {
    if (!isPlainObject(content)) return `a ${v.entryNoun} must be an object`;
    const label = content[LABEL_KEY];
    if (typeof label !== 'string' || label.trim() === '') return `"${entryName}" has no label`;
    const labelAdded = decodeProvenance(content.labelAdded);
    if (labelAdded === null) return `"${entryName}" has no valid labelAdded provenance`;
    const formerRaw = content.formerLabels ?? [];
    if (!Array.isArray(formerRaw)) return `"${entryName}".formerLabels must be a list`;
    const formerLabels: FormerLabel[] = [];
    for (const f of formerRaw as unknown[]) {
      if (!isPlainObject(f) || typeof f.label !== 'string')
        return `"${entryName}" has a former label that is not text`;
      const added = decodeProvenance(f.added);
      if (added === null) return `"${entryName}" has a former label without provenance`;
      formerLabels.push({ label: f.label, added });
    }
    const list = content[v.listKey];
    if (!Array.isArray(list)) return `"${entryName}".${v.listKey} must be a list`;
    const marks: Mark[] = [];
    for (const [i, m] of (list as unknown[]).entries()) {
      if (!isPlainObject(m)) return `"${entryName}".${v.listKey}[${i}] must be an object`;
      const text = m[v.textKey];
      const where = m[WHERE_KEY];
      if (typeof text !== 'string' || typeof where !== 'string' || !v.whereChoices.includes(where)) {
        return `"${entryName}".${v.listKey}[${i}] needs a ${v.textKey} and a ${WHERE_KEY} (one of ${listWords(v.whereChoices)})`;
      }
      if (text.trim() === '' || text.length > MAX_PATTERN_CHARS) {
        return `"${entryName}".${v.listKey}[${i}] has an empty or over-long ${v.textKey}`;
      }
      // A plain literal always compiles (pattern.test.ts proves it for every character and escape
      // plainLiteral takes), so only other patterns cost an re2 compile: loading 100,000 address
      // marks spent ~1.5 s here.
      if (compile && plainLiteral(text) === null) {
        // Loading a stored version checks that re2 can run it, not today's scope policy: a version
        // absorbed under older rules must stay loadable so a task pinned to it can finish (§10.3).
        const error = re2Error(text);
        if (error !== null)
          return `"${entryName}".${v.listKey}[${i}]: re2 cannot compile "${text}": ${error}`;
      }
      const added = decodeProvenance(m.added);
      if (added === null) return `"${entryName}".${v.listKey}[${i}] has no valid provenance`;
      marks.push({ text, where, added });
    }
    const known = new Set([LABEL_KEY, 'labelAdded', 'formerLabels', v.listKey]);
    const extra = Object.keys(content).filter((k) => !known.has(k));
    if (extra.length > 0) return `"${entryName}" has unknown keys ${listWords(extra)}`;
    return { label, labelAdded, formerLabels, marks };
  }

  function mustDecode(entryName: string, content: EntryContent): Entry {
    const e = decode(entryName, content);
    // Stored content is validated on import and load; a broken one here is a fault, not a user outcome.
    if (typeof e === 'string') throw new TypeError(`${v.collection}: stored entry is malformed: ${e}`);
    return e;
  }

  function encode(e: Entry): EntryContent {
    const out: Record<string, unknown> = {
      [LABEL_KEY]: e.label,
      labelAdded: { ...e.labelAdded },
      [v.listKey]: e.marks.map((m) => ({ [v.textKey]: m.text, [WHERE_KEY]: m.where, added: { ...m.added } })),
    };
    if (e.formerLabels.length > 0)
      out.formerLabels = e.formerLabels.map((f) => ({ label: f.label, added: { ...f.added } }));
    return out as JsonObject;
  }

  const learnable = {
    collection: v.collection,
    entryNoun: v.entryNoun,
    createsEntries: true,

    // Issue 12.3: a taught lesson creates an entry only when it names it (the declared label field).
    creation: {
      asks(value: LessonValue): boolean {
        const p = parse(value);
        // A value it refuses goes on to absorb, which says why in its own words (§10.1).
        return 'refused' in p || p.label !== undefined;
      },
      how: `fill in "${v.newEntryField}" to create a new ${v.entryNoun}`,
    },

    descriptor: (settings: LearnableSettings) => v.descriptor(settings),

    absorb(
      entryName: string,
      content: EntryContent | undefined,
      value: LessonValue,
      stamp: Provenance,
    ): Absorption {
      const p = parse(value);
      if ('refused' in p) return { outcome: 'refused', reason: p.refused };
      const describes = phrase(p);
      const stampCopy: Provenance = { activation: stamp.activation, taughtBy: stamp.taughtBy, at: stamp.at };
      if (content === undefined) {
        const created: Entry = {
          label: p.label ?? v.labelFromName(entryName),
          labelAdded: stampCopy,
          formerLabels: [],
          marks: p.text === undefined ? [] : [{ text: p.text, where: p.where, added: stampCopy }],
        };
        return { outcome: 'learned', content: encode(created), describes };
      }
      const e = mustDecode(entryName, content);
      let changed = false;
      let next: Entry = e;
      if (p.text !== undefined && !e.marks.some((m) => sameMark(m, { text: p.text!, where: p.where }))) {
        next = { ...next, marks: [...next.marks, { text: p.text, where: p.where, added: stampCopy }] };
        changed = true;
      }
      if (p.label !== undefined && p.label !== e.label) {
        next = {
          ...next,
          label: p.label,
          labelAdded: stampCopy,
          formerLabels: [...e.formerLabels, { label: e.label, added: e.labelAdded }],
        };
        changed = true;
      }
      // §10.2: a lesson adding nothing is not an error and makes no version.
      if (!changed) return { outcome: 'unchanged', describes };
      return { outcome: 'learned', content: encode(next), describes };
    },

    describe(value: LessonValue): string {
      const p = parse(value);
      if ('refused' in p) return `nothing usable (${p.refused})`;
      return phrase(p);
    },

    revert(entryName: string, content: EntryContent, value: LessonValue, activation: number): Removal {
      const e = mustDecode(entryName, content);
      const p = parse(value);
      if ('refused' in p) return { outcome: 'unchanged' };
      const addedHere = (x: { added: Provenance }): boolean => x.added.activation === activation;
      const marks =
        p.text === undefined
          ? e.marks
          : e.marks.filter((m) => !(addedHere(m) && sameMark(m, { text: p.text!, where: p.where })));
      // Every label the entry has had, oldest first; the last is the current one, the first came with the entry.
      const labels: FormerLabel[] = [...e.formerLabels, { label: e.label, added: e.labelAdded }];
      const labelHere = (l: FormerLabel, i: number): boolean => i > 0 && addedHere(l) && l.label === p.label;
      const keptLabels = p.label === undefined ? labels : labels.filter((l, i) => !labelHere(l, i));
      const createdHere = addedHere(labels[0]!);
      const creationLabelHere = createdHere && p.label !== undefined && labels[0]!.label === p.label;
      if (marks.length === e.marks.length && keptLabels.length === labels.length && !creationLabelHere) {
        return { outcome: 'unchanged' };
      }
      // This activation made the entry and nothing anyone added later remains: remove the entry.
      if (createdHere && marks.length === 0 && keptLabels.every((l) => addedHere(l))) {
        return { outcome: 'changed', content: null };
      }
      let first = keptLabels[0]!;
      if (creationLabelHere && keptLabels.length === 1) {
        // The name came with this activation but later marks remain: fall back to the name-derived label.
        first = { label: v.labelFromName(entryName), added: marks[0]?.added ?? first.added };
      }
      const all = [first, ...keptLabels.slice(1)];
      const current = all.at(-1)!;
      const next = encode({
        label: current.label,
        labelAdded: current.added,
        formerLabels: all.slice(0, -1),
        marks,
      });
      return canonicalJson(next) === canonicalJson(encode(e))
        ? { outcome: 'unchanged' }
        : { outcome: 'changed', content: next };
    },

    mentions(content: EntryContent, identifier: string): boolean {
      const e = mustDecode('entry', content);
      const needle = identifier.trim().toLowerCase();
      if (needle === '') return false;
      return (
        e.marks.some((m) => patternMentions(m.text, identifier)) ||
        e.label.toLowerCase().includes(needle) ||
        e.formerLabels.some((f) => f.label.toLowerCase().includes(needle))
      );
    },

    erase(content: EntryContent, identifier: string): Removal {
      const e = mustDecode('entry', content);
      const needle = identifier.trim().toLowerCase();
      if (needle === '' || !learnable.mentions(content, identifier)) return { outcome: 'unchanged' };
      const holds = (label: string): boolean => label.toLowerCase().includes(needle);
      const marks = e.marks.filter((m) => !patternMentions(m.text, identifier));
      const formerLabels = e.formerLabels.filter((f) => !holds(f.label));
      if (!holds(e.label)) return { outcome: 'changed', content: encode({ ...e, formerLabels, marks }) };
      // §14: the current name holds the identifier. Fall back to an earlier name, if one is clean.
      const previous = formerLabels.at(-1);
      if (previous !== undefined) {
        return {
          outcome: 'changed',
          content: encode({
            label: previous.label,
            labelAdded: previous.added,
            formerLabels: formerLabels.slice(0, -1),
            marks,
          }),
        };
      }
      if (marks.length === 0) return { outcome: 'changed', content: null };
      return { outcome: 'changed', content: encode({ ...e, label: ERASED_LABEL, formerLabels, marks }) };
    },

    rules(entryName: string, content: EntryContent): readonly LearnedRule[] {
      const e = mustDecode(entryName, content);
      return e.marks.map((m) => ({ describes: v.phraseMark(m.text, m.where), provenance: m.added }));
    },

    marks(entryName: string, content: EntryContent): readonly MarkSource[] {
      const e = mustDecode(entryName, content);
      return e.marks.map((m) => ({
        source: m.text,
        parts: partsOf(m.where),
        mark: m.text,
        where: m.where,
        provenance: m.added,
      }));
    },

    label(entryName: string, content: EntryContent): string {
      const e = decode(entryName, content);
      return typeof e === 'string' ? entryName : e.label;
    },

    validateContent(
      entryName: string,
      content: unknown,
    ): { ok: true; content: EntryContent } | { ok: false; reason: string } {
      const e = decode(entryName, content, true);
      if (typeof e === 'string') return { ok: false, reason: e };
      return { ok: true, content: encode(e) };
    },
  };
  return learnable;
}

/** The message parts a `where` names; 'any' is all four. */
export function partsOf(where: string): readonly MailPart[] {
  return where === 'any' ? MAIL_PARTS : MAIL_PARTS.filter((p) => p === where);
}

function decodeProvenance(raw: unknown): Provenance | null {
  if (!isPlainObject(raw)) return null;
  const { activation, taughtBy, at } = raw;
  if (
    typeof activation !== 'number' ||
    !Number.isInteger(activation) ||
    typeof taughtBy !== 'string' ||
    typeof at !== 'string'
  ) {
    return null;
  }
  return { activation, taughtBy, at };
}

function describeType(v: unknown): string {
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'an object';
  return `a ${typeof v}`;
}

/** "a", "a and b", "a, b and c" */
export function listWords(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words.at(-1)!}`;
}

/**
 * The `how` sentence (§6.2) of the one decision rule every marked collection is read by
 * (src/domain/triage/read-marked.ts), in that collection's words, with the real margin.
 */
export function markScoringHow(
  words: { readonly intro: string; readonly mark: string; readonly holder: string },
  settings: LearnableSettings,
): string {
  return (
    `${words.intro}, each looked for in one part of the message. ` +
    `Every ${words.mark} that matches scores one point for its ${words.holder}, however many parts it matches in, ` +
    `and a ${words.holder}'s score is its share of all points scored. ` +
    `The highest score wins if it leads the next by at least ${formatShare(settings.identificationMargin)} (the identification margin). ` +
    'Nothing matches, nothing is claimed.'
  );
}

/** Format a share (0..1) for prose: 0.5 -> "0.5", 0.333333 -> "0.333". */
export function formatShare(n: number): string {
  return String(Number(n.toFixed(3)));
}
