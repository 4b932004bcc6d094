/**
 * A marked learnable's stored entry: its label, the labels it had before (so a rename can be
 * reverted exactly) and its marks, each with the provenance of the activation that added it (§13.4).
 *
 * Owns: decoding stored content (checked on import and load, re2 included, §13.3) and encoding it
 * back to plain JSON. Does not own: what a lesson changes in an entry (marked-entries.ts,
 * marked-history.ts) or judging a lesson value (marked-value.ts).
 */
import { isPlainObject, type JsonObject } from '../json.ts';
import type { EntryContent, Provenance } from './learnable.ts';
import { plainLiteral } from '../matching/index.ts';
import { LABEL_KEY, WHERE_KEY, type MarkedVocabulary } from './marked-value.ts';
import { MAX_PATTERN_CHARS, re2Error } from './pattern.ts';
import { decodeProvenance, listWords } from './value-shape.ts';

interface Mark {
  readonly text: string;
  readonly where: string;
  readonly added: Provenance;
}

export interface FormerLabel {
  readonly label: string;
  readonly added: Provenance;
}

export interface Entry {
  readonly label: string;
  readonly labelAdded: Provenance;
  /** Labels this entry had before, oldest first (kept so a rename can be reverted exactly). */
  readonly formerLabels: readonly FormerLabel[];
  readonly marks: readonly Mark[];
}

/** Two marks are one when they look in the same place for the same text, case aside. */
export function sameMark(a: { text: string; where: string }, b: { text: string; where: string }): boolean {
  return a.where === b.where && a.text.toLowerCase() === b.text.toLowerCase();
}

/** Shape check; `compile` also compiles every mark on re2 (for import and load, not per call). */
export function decodeEntry(
  v: MarkedVocabulary,
  entryName: string,
  content: unknown,
  compile = false,
): Entry | string {
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
      if (error !== null) return `"${entryName}".${v.listKey}[${i}]: re2 cannot compile "${text}": ${error}`;
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

/** Stored content, which import and load validated: a broken one here is a fault, not a user outcome. */
export function mustDecodeEntry(v: MarkedVocabulary, entryName: string, content: EntryContent): Entry {
  const e = decodeEntry(v, entryName, content);
  if (typeof e === 'string') throw new TypeError(`${v.collection}: stored entry is malformed: ${e}`);
  return e;
}

export function encodeEntry(v: MarkedVocabulary, e: Entry): EntryContent {
  const out: Record<string, unknown> = {
    [LABEL_KEY]: e.label,
    labelAdded: { ...e.labelAdded },
    [v.listKey]: e.marks.map((m) => ({ [v.textKey]: m.text, [WHERE_KEY]: m.where, added: { ...m.added } })),
  };
  if (e.formerLabels.length > 0)
    out.formerLabels = e.formerLabels.map((f) => ({ label: f.label, added: { ...f.added } }));
  return out as JsonObject;
}
