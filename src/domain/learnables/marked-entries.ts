/**
 * The shared engine of learnables whose entries carry a human label and a list of text marks,
 * each looked for in one part of a message (customers' marks, kinds' cues). Each learnable keeps
 * its own vocabulary (value keys, content keys, where-choices, wording: `MarkedVocabulary`); this
 * module assembles the Learnable from the concepts they share: the value (marked-value.ts), the
 * stored entry (marked-content.ts) and what a lesson, revert or erase changes in it
 * (marked-changes.ts), plus creation (issue 12.3), rules with provenance (§13.4), the marks handed
 * to the matcher (§13.3) and the `how` of the one scoring rule.
 *
 * Does not own: matching or scoring mail (read-marked.ts and the readers), nor any collection's words.
 */
import { MAIL_PARTS, type MailPart } from '../mail/index.ts';
import type {
  Absorption,
  EntryContent,
  Learnable,
  LearnableSettings,
  LearnedRule,
  LessonValue,
  MarkSource,
  Provenance,
  Removal,
} from './learnable.ts';
import { absorbMarked, eraseMarked, mentionsMarked, revertMarked } from './marked-changes.ts';
import { decodeEntry, encodeEntry, mustDecodeEntry } from './marked-content.ts';
import {
  ALREADY_READ_KEY,
  alreadyReadField,
  parseMarkedValue,
  phraseMarkedValue,
  type MarkedVocabulary,
} from './marked-value.ts';
import { markedRefiling } from './refiling.ts';
import { declaredCreation } from './value-shape.ts';

export function createMarkedLearnable(
  v: MarkedVocabulary,
): Learnable & { label(entryName: string, content: EntryContent): string } {
  const parse = (value: LessonValue) => parseMarkedValue(v, value);

  return {
    collection: v.collection,
    entryNoun: v.entryNoun,
    createsEntries: true,

    // Issue 12.3: a taught lesson creates an entry only when it names it (the declared label field).
    creation: declaredCreation(
      parse,
      (p) => p.label !== undefined,
      `fill in "${v.newEntryField}" to create a new ${v.entryNoun}`,
    ),

    // §13.1: re-filing mail already read is the person's explicit choice.
    refiling: markedRefiling(
      (value) => {
        const p = parse(value);
        return !('refused' in p) && p.refile === true;
      },
      { name: ALREADY_READ_KEY, label: alreadyReadField(v.entryNoun).label, choice: 're-file' },
    ),

    descriptor: (settings: LearnableSettings) => v.descriptor(settings),

    absorb(
      entryName: string,
      content: EntryContent | undefined,
      value: LessonValue,
      stamp: Provenance,
    ): Absorption {
      const p = parse(value);
      if ('refused' in p) return { outcome: 'refused', reason: p.refused };
      return absorbMarked(v, entryName, content, p, stamp, phraseMarkedValue(v, p));
    },

    describe(value: LessonValue): string {
      const p = parse(value);
      if ('refused' in p) return `nothing usable (${p.refused})`;
      return phraseMarkedValue(v, p);
    },

    revert(entryName: string, content: EntryContent, value: LessonValue, activation: number): Removal {
      const p = parse(value);
      if ('refused' in p) {
        mustDecodeEntry(v, entryName, content); // a malformed stored entry is a fault, refused value or not
        return { outcome: 'unchanged' };
      }
      return revertMarked(v, entryName, content, p, activation);
    },

    mentions: (content: EntryContent, identifier: string): boolean => mentionsMarked(v, content, identifier),

    erase: (content: EntryContent, identifier: string): Removal => eraseMarked(v, content, identifier),

    rules(entryName: string, content: EntryContent): readonly LearnedRule[] {
      const e = mustDecodeEntry(v, entryName, content);
      return e.marks.map((m) => ({ describes: v.phraseMark(m.text, m.where), provenance: m.added }));
    },

    marks(entryName: string, content: EntryContent): readonly MarkSource[] {
      const e = mustDecodeEntry(v, entryName, content);
      return e.marks.map((m) => ({
        source: m.text,
        parts: partsOf(m.where),
        mark: m.text,
        where: m.where,
        provenance: m.added,
      }));
    },

    label(entryName: string, content: EntryContent): string {
      const e = decodeEntry(v, entryName, content);
      return typeof e === 'string' ? entryName : e.label;
    },

    validateContent(
      entryName: string,
      content: unknown,
    ): { ok: true; content: EntryContent } | { ok: false; reason: string } {
      const e = decodeEntry(v, entryName, content, true);
      if (typeof e === 'string') return { ok: false, reason: e };
      return { ok: true, content: encodeEntry(v, e) };
    },
  };
}

/** The message parts a `where` names; 'any' is all four. */
function partsOf(where: string): readonly MailPart[] {
  return where === 'any' ? MAIL_PARTS : MAIL_PARTS.filter((p) => p === where);
}

/**
 * The `how` sentence (§6.2) of the one decision rule every marked collection is read by
 * (read-marked.ts), in that collection's words, with the real margin.
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
function formatShare(n: number): string {
  return String(Number(n.toFixed(3)));
}
