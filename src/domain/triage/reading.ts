/**
 * Readings (§11): what the agent makes of one message under one definition version. The shapes
 * keep §11's JSON (settled, winner, reads, candidates[name,label,score,matched]) and add evidence.
 */
import type { LessonField, LessonValue } from '../learnables/learnable.ts';
import type { MailPart } from '../mail/mail-message.ts';

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

export interface CollectionReading {
  readonly collection: string;
  readonly settled: boolean;
  readonly winner?: string;
  /** A sentence a person understands: "Reads as Northgate Motors Ltd, on billing@origin.example". */
  readonly reads: string;
  readonly candidates: readonly Candidate[];
}

export interface ManifestFieldReading {
  readonly field: string;
  readonly settled: boolean;
  /** The heading it was found under, when settled. */
  readonly column?: string;
  readonly reads: string;
  /** Values of that column in the manifest's rows (first 50), when settled. */
  readonly values?: readonly string[];
}

export interface ManifestReading {
  readonly collection: string;
  readonly settled: boolean;
  readonly reads: string;
  readonly attachment: string;
  readonly headingsSeen: readonly string[];
  readonly fields: readonly ManifestFieldReading[];
}

/** A proposed lesson value drawn from the evidence (§8); never wider than that evidence (§13.1). */
export interface Suggestion {
  readonly collection: string;
  readonly value: LessonValue;
  /** Where it came from, in a person's words: "the address this message came from". */
  readonly suggestionLabel: string;
  /**
   * The entry the evidence points to, when every message already read that the suggestion matches
   * was read as that one entry; absent when nothing read so far says whose it is.
   */
  readonly forEntry?: string;
}

/** The §8 teach block, as carried in a question's metadata under the extension URI. */
export interface TeachBlock {
  readonly collection: string;
  readonly entries: readonly string[];
  readonly suggested?: LessonValue;
  readonly suggestionLabel?: string;
  readonly lessonFields?: readonly LessonField[];
}

export interface MessageReading {
  readonly versionId: string;
  readonly definitionVersion: number;
  readonly customer: CollectionReading;
  readonly kind: CollectionReading;
  /** One per CSV manifest attachment. */
  readonly manifests: readonly ManifestReading[];
}
