/**
 * The decision rule shared by every learnable whose entries carry marks (customers' marks, kinds'
 * cues), exactly as their `how` sentence states it (§6.2, §11):
 *
 *   every mark of an entry that matches its part(s) scores one point for that entry (once, however
 *   many parts it matched in); an entry's score is its share of all points scored in the message;
 *   the highest score wins if it leads the next best by at least the identification margin;
 *   nothing matches, nothing is claimed.
 *
 * An entry is not penalised for having many marks: only marks that match count. Scores are
 * rounded to three places in the reading; the decision uses exact point counts.
 *
 * `markedReader` makes a learnable's reader (reader.ts) from this rule and the learnable's own
 * words: the reading, its question, its suggestion, and the reading once a person decided.
 *
 * Owns: scoring, the §11 shape of a decided-entry reading, and the wording of a reading. Does not
 * own: matching (the matcher), what a mark is (the learnable), what evidence a suggestion is drawn
 * from (the learnable's reader), or display names of people (the caller's `resolvePerson`).
 */
import type { EntryContent, Learnable, LearnableSettings } from './learnable.ts';
import { labelOf as entryLabel } from './learnable.ts';
import { MAIL_PARTS, type MailPart } from '../mail/index.ts';
import { displayText } from './literal-pattern.ts';
import { setAsideQuoted, setAsideSentence, type SetAside, type WeighedHits } from './set-aside.ts';
import type {
  IndexedMark,
  MarkHit,
  PersonDecision,
  ReadInput,
  Reader,
  Reading,
  ResolvePerson,
  SuggestContext,
  SuggestOutcome,
} from './learnable.ts';

/** One matched mark, with who taught it and when (§13.4). */
export interface MarkEvidence {
  /** The mark as taught (a pattern or cue), phrased by its learnable. */
  readonly mark: string;
  /** Where the mark looks (from, subject, body, attachments, any). */
  readonly where: string;
  /** The part of this message it matched in. */
  readonly part: MailPart;
  /** The text it matched (trimmed to 200 characters). */
  readonly text: string;
  /** Display form of the person who taught it (resolved by the authority), or the internal id. */
  readonly taughtBy: string;
  readonly taughtAt: string;
  /** definitionVersion of the activation that added the mark. */
  readonly activation: number;
}

export interface Candidate {
  readonly name: string;
  readonly label: string;
  /** Share of all points scored in this collection, rounded to 3 places. */
  readonly score: number;
  /** §11: the marks that matched, as taught. */
  readonly matched: readonly string[];
  readonly evidence: readonly MarkEvidence[];
}

/** §11's report of a collection that decides one entry per message: settled, winner, reads, candidates. */
export interface CollectionReading {
  readonly collection: string;
  readonly settled: boolean;
  readonly winner?: string;
  /** A sentence a person understands: "Reads as Northgate Motors Ltd, on billing@origin.example". */
  readonly reads: string;
  readonly candidates: readonly Candidate[];
  /** Why some matched marks did not count (quoted text, an inherited subject); absent when none (set-aside.ts). */
  readonly setAside?: string;
}

/** Collections this small list every entry as a candidate, matched or not (§11's example shows a 0.0). */
export const LIST_ALL_ENTRIES_UP_TO = 10;
/** Longest matched text kept in evidence, in characters. */
export const MAX_EVIDENCE_TEXT = 200;

/** The words one collection's readings are phrased in. */
export interface ReadingWords {
  /**
   * The question asked when unsettled, after what was seen: "Nothing matched, so" + "I can't tell whose
   * shipment this is: who should it go to?"
   */
  readonly question: string;
  /** "Still cannot tell whose this is" */
  readonly cannotTell: string;
  /** The sentence for a settled reading, from the winner's label and the evidence. */
  settled(label: string, hits: readonly MarkHit[]): string;
  /** How an entry is named in an unsettled sentence ("Northgate Motors Ltd", "a pre-alert"). */
  name(label: string): string;
  /**
   * Issue 14 (only with `strength`): the sentence when the leader's marks are weaker than another
   * entry's, e.g. the sender's address says one customer and the body another.
   */
  disagree?(leader: string, leaderParts: string, stronger: string, strongerParts: string): string;
}

/** How much a mark matched in `part` says about the entry (higher says more); issue 14. */
export type MarkStrength = (part: MailPart) => number;

const PART_WORDS: Readonly<Record<MailPart, string>> = {
  from: "the sender's address",
  subject: 'the subject',
  body: 'the body',
  attachments: 'the attachments',
  quoted: 'the quoted text',
};

/** "the subject", "the sender's address" */
export function partWords(part: MailPart): string {
  return PART_WORDS[part];
}

/** "a", "a and b", "a, b and c" */
export function listAnd(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]!}`;
}

/** Share rounded to three places (§11 `score`). */
export function roundScore(share: number): number {
  return Math.round(share * 1000) / 1000;
}

const EPSILON = 1e-9;

interface Tally {
  readonly entry: string;
  readonly marks: Map<IndexedMark, MarkHit[]>;
}

/**
 * Read one marked collection of a message from the matcher's hits (any collection's; only this
 * one's are used).
 */
export function readMarkedCollection(input: {
  readonly learnable: Pick<Learnable, 'collection' | 'label'>;
  readonly entries: ReadonlyMap<string, EntryContent> | undefined;
  readonly hits: readonly MarkHit[];
  readonly settings: LearnableSettings;
  readonly resolvePerson: ResolvePerson;
  readonly words: ReadingWords;
  /** Hits the learnable's own rule set aside before scoring (kinds: an inherited subject). */
  readonly setAside?: readonly SetAside[];
  /** When given, a leader never settles against an entry matched by a stronger mark. */
  readonly strength?: MarkStrength;
}): CollectionReading {
  const { learnable, entries, words } = input;
  const collection = learnable.collection;
  // The new text: a hit in the quoted part counts only for a mark taught for it.
  const weighed = setAsideQuoted(input.hits.filter((h) => h.mark.collection === collection));
  const setAside = [...(input.setAside ?? []), ...weighed.setAside];
  const reading = scoreHits({ ...input, hits: weighed.hits });
  if (setAside.length === 0) return reading;
  const sentence = setAsideSentence(setAside, (entry) => {
    const content = entries?.get(entry);
    return words.name(
      content !== undefined && learnable.label !== undefined ? learnable.label(entry, content) : entry,
    );
  });
  return { ...reading, reads: `${ensureStop(reading.reads)} ${sentence}`, setAside: sentence };
}

/** The scoring rule (the header's) on hits that count. */
function scoreHits(input: Parameters<typeof readMarkedCollection>[0]): CollectionReading {
  const { learnable, entries, settings, resolvePerson, words, strength } = input;
  const collection = learnable.collection;
  const tallies = new Map<string, Tally>();
  for (const hit of input.hits) {
    if (hit.mark.collection !== collection) continue;
    let t = tallies.get(hit.mark.entry);
    if (t === undefined) {
      t = { entry: hit.mark.entry, marks: new Map() };
      tallies.set(hit.mark.entry, t);
    }
    const list = t.marks.get(hit.mark);
    if (list === undefined) t.marks.set(hit.mark, [hit]);
    else list.push(hit);
  }

  const labelOf = (entry: string): string => entryLabel(learnable, entries, entry);

  // Every matching mark scores one point, however many parts it matched in.
  const total = [...tallies.values()].reduce((n, t) => n + t.marks.size, 0);
  const ranked = [...tallies.values()].sort(
    (a, b) => b.marks.size - a.marks.size || (a.entry < b.entry ? -1 : 1),
  );

  const candidates: Candidate[] = ranked.map((t) => {
    const evidence: MarkEvidence[] = [];
    for (const [mark, hits] of t.marks) {
      for (const h of hits) {
        evidence.push({
          mark: mark.mark,
          where: mark.where,
          part: h.part,
          text: h.text.length > MAX_EVIDENCE_TEXT ? h.text.slice(0, MAX_EVIDENCE_TEXT) : h.text,
          taughtBy: resolvePerson(mark.provenance.taughtBy),
          taughtAt: mark.provenance.at,
          activation: mark.provenance.activation,
        });
      }
    }
    return {
      name: t.entry,
      label: labelOf(t.entry),
      score: roundScore(t.marks.size / total),
      matched: unique([...t.marks.keys()].map((m) => m.mark)),
      evidence,
    };
  });
  if (entries !== undefined && entries.size <= LIST_ALL_ENTRIES_UP_TO) {
    for (const entry of [...entries.keys()].sort()) {
      if (!tallies.has(entry))
        candidates.push({ name: entry, label: labelOf(entry), score: 0, matched: [], evidence: [] });
    }
  }

  if (ranked.length === 0) {
    return { collection, settled: false, reads: `${words.cannotTell}: nothing matched.`, candidates };
  }

  const best = ranked[0]!;
  const next = ranked[1];
  const lead = (best.marks.size - (next?.marks.size ?? 0)) / total;
  // Evidence that disagrees is not a decision. When another entry matched a mark of a
  // stronger kind than any of the leader's (the body names B, only the sender says A), ask.
  const strongest = (t: Tally): number =>
    Math.max(...[...t.marks.values()].flat().map((h) => strength?.(h.part) ?? 0));
  const stronger =
    strength === undefined ? undefined : ranked.slice(1).find((t) => strongest(t) > strongest(best));
  if (stronger !== undefined && words.disagree !== undefined) {
    const reads = words.disagree(
      words.name(labelOf(best.entry)),
      partsOf([...best.marks.values()].flat()),
      words.name(labelOf(stronger.entry)),
      partsOf([...stronger.marks.values()].flat()),
    );
    return { collection, settled: false, reads, candidates };
  }
  if (lead + EPSILON >= settings.identificationMargin) {
    const hits = [...best.marks.values()].flat();
    return {
      collection,
      settled: true,
      winner: best.entry,
      reads: words.settled(labelOf(best.entry), hits),
      candidates,
    };
  }

  // Unsettled: say who matched and where (§11).
  const contenders = ranked.filter(
    (t) => (best.marks.size - t.marks.size) / total < settings.identificationMargin - EPSILON,
  );
  const names = contenders.map((t) => words.name(labelOf(t.entry)));
  const parts = partsOf(contenders.flatMap((t) => [...t.marks.values()].flat()));
  const verb = contenders.length === 2 ? 'both match' : 'all match';
  const tied = contenders.every((t) => t.marks.size === best.marks.size);
  const reads = capitalise(
    tied
      ? `${listAnd(names)} ${verb}, on ${parts}.`
      : `${listAnd(names)} ${verb}, on ${parts}; ${names[0]!} leads, but not by the margin of ${roundScore(settings.identificationMargin)}.`,
  );
  return { collection, settled: false, reads, candidates };
}

/** "the subject", "the subject and the body", in message order. */
export function partsOf(hits: readonly MarkHit[]): string {
  const seen = new Set(hits.map((h) => h.part));
  return listAnd(MAIL_PARTS.filter((p) => seen.has(p)).map(partWords));
}

/** The matched texts, as a person would recognise them ("billing@origin.example"). */
export function shownTexts(hits: readonly MarkHit[]): string[] {
  return unique(hits.map((h) => displayText(h.text)).filter((t) => t !== ''));
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function unique(xs: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const x of xs) {
    const k = x.toLowerCase();
    if (!seen.has(k)) {
      seen.add(k);
      out.push(x);
    }
  }
  return out;
}

/** What a marked collection's suggestion needs beyond the reading: the learnable and the context. */
export type MarkedSuggest = (
  reading: CollectionReading,
  learnable: Learnable,
  context: SuggestContext,
) => Promise<SuggestOutcome>;

/**
 * A marked learnable's reader: the shared rule above in the learnable's own words, shown under
 * `shownAs`, asking `words.question` when unsettled and suggesting through `suggest`.
 */
export function markedReader(config: {
  readonly learnable: Learnable;
  readonly shownAs: string;
  readonly words: ReadingWords;
  readonly suggest: MarkedSuggest;
  /** The learnable's own weighing of its hits before the shared rule (kinds: an inherited subject). */
  readonly weigh?: (input: ReadInput) => WeighedHits;
  /** Issue 14 (customers): mark strengths, and hits a reader sets aside before scoring. */
  readonly strength?: MarkStrength;
  readonly keepHit?: (hit: MarkHit, input: ReadInput) => boolean;
  /** Issue 14 (customers): notes for the report once a person decided against matched marks. */
  readonly decidedNotes?: (report: CollectionReading, entry: string) => readonly string[];
  /**
   * Issue 14 (customers): why a settled reading must ask after all, in one sentence, when evidence
   * no mark carries disagrees with the winner's (another customer named in the new text); null
   * when nothing objects. Applied only to settled readings.
   */
  readonly objection?: (report: CollectionReading, input: ReadInput) => string | null;
  /**
   * Issue 38 (customers): whether a settled reading rests on marks whose authority is the sender's
   * track record, so that, read without it, triage must read it again with it.
   */
  readonly restsOnRecord?: (report: CollectionReading, input: ReadInput) => boolean;
  /**
   * Issue 49 (kinds): for an unsettled reading with two or more candidates, the settled report the
   * track record allows (one entry's record clearly stronger), or null to ask. Triage reads the
   * record for it.
   */
  readonly arbiter?: (report: CollectionReading, input: ReadInput) => CollectionReading | null;
}): Reader {
  const { shownAs, words, strength, keepHit, objection, restsOnRecord, arbiter } = config;
  return {
    shownAs,
    reads: [],
    read(input) {
      const weighed = config.weigh?.(input);
      const weighedHits = weighed === undefined ? input.hits : weighed.hits;
      const hits = keepHit === undefined ? weighedHits : weighedHits.filter((h) => keepHit(h, input));
      const report = readMarkedCollection({
        ...input,
        hits,
        ...(weighed === undefined ? {} : { setAside: weighed.setAside }),
        learnable: config.learnable,
        words,
        ...(strength === undefined ? {} : { strength }),
      });
      if (
        !report.settled &&
        arbiter !== undefined &&
        report.candidates.filter((c) => c.evidence.length > 0).length > 1
      ) {
        if (input.record === undefined) return { ...asReading(shownAs, report), needsSenderRecord: true };
        const arbitrated = arbiter(report, { ...input, hits });
        if (arbitrated !== null) return asReading(shownAs, arbitrated);
      }
      const objected =
        report.settled && objection !== undefined ? objection(report, { ...input, hits }) : null;
      if (objected === null) {
        const reading = asReading(shownAs, report);
        const ask = report.settled && input.record === undefined && restsOnRecord?.(report, input) === true;
        return ask ? { ...reading, needsSenderRecord: true } : reading;
      }
      // Unsettled, the candidates kept: the show-back says why (§11).
      const { winner: _winner, ...rest } = report;
      return asReading(shownAs, {
        ...rest,
        settled: false,
        reads: report.setAside === undefined ? objected : `${ensureStop(objected)} ${report.setAside}`,
      });
    },
    // One sentence: what was seen, then the question (it must not say "cannot tell" twice).
    question(reading) {
      const reads = reportOf(reading).reads;
      const lead = `${words.cannotTell}: `;
      const seen = reads.startsWith(lead) ? capitalise(reads.slice(lead.length)) : reads;
      return `${seen.replace(/[.!?]+$/, '')}, so ${words.question}`;
    },
    suggest(reading, context) {
      return config.suggest(reportOf(reading), config.learnable, context);
    },
    decided(reading, decision) {
      const report = reportOf(reading);
      const done = decidedReport(
        reading,
        decision,
        (entry) => report.candidates.find((c) => c.name === entry)?.label ?? entry,
      );
      const notes =
        decision === undefined || config.decidedNotes === undefined
          ? []
          : config.decidedNotes(report, decision.entry);
      return notes.length === 0 ? done : { ...done, report: { ...(done.report as object), notes } };
    },
  };
}

/**
 * §11 for any reading that decides one entry: its report once a person chose `decision.entry`
 * (shown by `label`), or, with no decision, marked as decided by the rules or by nobody.
 */
export function decidedReport(
  reading: Reading,
  decision: PersonDecision | undefined,
  label: (entry: string) => string = (entry) => entry,
): Reading {
  const r = reading.report as { readonly settled: boolean };
  if (decision === undefined)
    return { ...reading, report: { ...r, decidedBy: r.settled ? 'rules' : 'nobody' } };
  const reads = `Decided by a person: ${label(decision.entry)}`;
  return {
    ...reading,
    winnerLabel: label(decision.entry),
    report: {
      ...r,
      settled: true,
      winner: decision.entry,
      reads,
      decidedBy: 'person',
      answeredBy: decision.answeredBy,
      answeredAt: decision.at,
    },
    line: reads,
  };
}

function asReading(shownAs: string, r: CollectionReading): Reading {
  const label = r.settled ? r.candidates.find((c) => c.name === r.winner)?.label : undefined;
  return {
    collection: r.collection,
    shownAs,
    settled: r.settled,
    winner: r.settled ? (r.winner ?? null) : null,
    ...(label === undefined ? {} : { winnerLabel: label }),
    settledCount: r.settled ? 1 : 0,
    decision: { settled: r.settled, winner: r.winner ?? null },
    likely: r.candidates.filter((c) => c.score > 0).map((c) => c.name),
    report: r,
    line: r.reads,
  };
}

/** The §11 report a marked reader made (its own shape; opaque to everyone else). */
export function reportOf(reading: Reading): CollectionReading {
  return reading.report as CollectionReading;
}

/** "Reads as X" -> "Reads as X." */
export function ensureStop(s: string): string {
  return /[.!?]$/.test(s) ? s : `${s}.`;
}
