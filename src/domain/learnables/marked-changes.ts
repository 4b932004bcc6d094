/**
 * What a lesson, a revert and an erase change in a marked learnable's entry: a mark added once
 * (§10.2), a rename that keeps the former label, exactly one activation's additions taken back, and
 * every mark and label holding an identifier taken out, falling back to an earlier clean name (§14).
 *
 * Owns: these changes on decoded entries. Does not own: decoding or encoding content
 * (marked-content.ts), judging the value (marked-value.ts), or who may make a change (the authority).
 */
import { canonicalJson } from '../json.ts';
import type { Absorption, EntryContent, Provenance, Removal } from './learnable.ts';
import { encodeEntry, mustDecodeEntry, sameMark, type Entry, type FormerLabel } from './marked-content.ts';
import type { MarkedVocabulary, ParsedValue } from './marked-value.ts';
import { patternMentions } from './pattern.ts';
import { copyProvenance } from './value-shape.ts';

/** What an entry is called when its label held an erased identifier and no earlier name is clean (§14). */
const ERASED_LABEL = '[erased]';

/** §10.2: absorb a judged value into `content` (undefined: the entry is new); `describes` as phrased. */
export function absorbMarked(
  v: MarkedVocabulary,
  entryName: string,
  content: EntryContent | undefined,
  p: ParsedValue,
  stamp: Provenance,
  describes: string,
): Absorption {
  const added = copyProvenance(stamp);
  if (content === undefined) {
    const created: Entry = {
      label: p.label ?? v.labelFromName(entryName),
      labelAdded: added,
      formerLabels: [],
      marks: p.text === undefined ? [] : [{ text: p.text, where: p.where, added }],
    };
    return { outcome: 'learned', content: encodeEntry(v, created), describes };
  }
  const e = mustDecodeEntry(v, entryName, content);
  let next: Entry = e;
  const text = p.text;
  if (text !== undefined && !e.marks.some((m) => sameMark(m, { text, where: p.where }))) {
    next = { ...next, marks: [...next.marks, { text, where: p.where, added }] };
  }
  if (p.label !== undefined && p.label !== e.label) {
    next = {
      ...next,
      label: p.label,
      labelAdded: added,
      formerLabels: [...e.formerLabels, { label: e.label, added: e.labelAdded }],
    };
  }
  // §10.2: a lesson adding nothing is not an error and makes no version.
  if (next === e) return { outcome: 'unchanged', describes };
  return { outcome: 'learned', content: encodeEntry(v, next), describes };
}

/** Take back exactly what `p` added in `activation`, keeping everything else. */
export function revertMarked(
  v: MarkedVocabulary,
  entryName: string,
  content: EntryContent,
  p: ParsedValue,
  activation: number,
): Removal {
  const e = mustDecodeEntry(v, entryName, content);
  const addedHere = (x: { added: Provenance }): boolean => x.added.activation === activation;
  const text = p.text;
  const marks =
    text === undefined
      ? e.marks
      : e.marks.filter((m) => !(addedHere(m) && sameMark(m, { text, where: p.where })));
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
  const next = encodeEntry(v, {
    label: current.label,
    labelAdded: current.added,
    formerLabels: all.slice(0, -1),
    marks,
  });
  return canonicalJson(next) === canonicalJson(encodeEntry(v, e))
    ? { outcome: 'unchanged' }
    : { outcome: 'changed', content: next };
}

/** §14: whether the entry holds `identifier` in a mark or in any label it has had. */
export function mentionsMarked(v: MarkedVocabulary, content: EntryContent, identifier: string): boolean {
  const e = mustDecodeEntry(v, 'entry', content);
  const needle = identifier.trim().toLowerCase();
  if (needle === '') return false;
  return (
    e.marks.some((m) => patternMentions(m.text, identifier)) ||
    e.label.toLowerCase().includes(needle) ||
    e.formerLabels.some((f) => f.label.toLowerCase().includes(needle))
  );
}

/** §14: the entry without anything holding `identifier`; null when nothing would remain. */
export function eraseMarked(v: MarkedVocabulary, content: EntryContent, identifier: string): Removal {
  const needle = identifier.trim().toLowerCase();
  if (needle === '' || !mentionsMarked(v, content, identifier)) return { outcome: 'unchanged' };
  const e = mustDecodeEntry(v, 'entry', content);
  const holds = (label: string): boolean => label.toLowerCase().includes(needle);
  const marks = e.marks.filter((m) => !patternMentions(m.text, identifier));
  const formerLabels = e.formerLabels.filter((f) => !holds(f.label));
  if (!holds(e.label)) return { outcome: 'changed', content: encodeEntry(v, { ...e, formerLabels, marks }) };
  // §14: the current name holds the identifier. Fall back to an earlier name, if one is clean.
  const previous = formerLabels.at(-1);
  if (previous !== undefined) {
    return {
      outcome: 'changed',
      content: encodeEntry(v, {
        label: previous.label,
        labelAdded: previous.added,
        formerLabels: formerLabels.slice(0, -1),
        marks,
      }),
    };
  }
  if (marks.length === 0) return { outcome: 'changed', content: null };
  return { outcome: 'changed', content: encodeEntry(v, { ...e, label: ERASED_LABEL, formerLabels, marks }) };
}
