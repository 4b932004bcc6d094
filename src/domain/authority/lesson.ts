/** §9 the Lesson, §10.4 the LessonResult. */
import type { LessonValue } from '../learnables/index.ts';

export interface Lesson {
  readonly collection: string;
  readonly entry: string;
  /** Opaque to every layer but the learnable (§9). */
  readonly value: LessonValue;
  /** Identifies the human (§9); never a service account standing in for one. */
  readonly taughtBy: string;
  readonly reason?: string;
}

export interface LessonResult {
  readonly learned: boolean;
  /** Phrased by the learnable (§10.4). */
  readonly describes: string;
  readonly definitionVersion: number;
  readonly versionId?: string;
  readonly previousVersionId?: string;
  /**
   * §13.1 SHOULD: how many messages already read the value matches, of how many kept,
   * and how many of them it re-filed (only when the lesson asked to). Absent where the authority
   * holds no corpus.
   */
  readonly alreadyRead?: { readonly matches: number; readonly total: number; readonly refiled: number };
}
