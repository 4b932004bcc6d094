/**
 * The compile's plan of its marks (§13.3): for each mark, by its index, how it is matched and what
 * the prefilter knows of it, in flat typed arrays; and the automaton's keys with the marks each
 * stands for.
 *
 * - A plain literal (optionally between `\b` anchors) is an automaton key whose first hit is
 *   re2's answer.
 * - A regex with atoms has its atoms as keys, the bounds and contexts of its analysis
 *   (mark-analysis.ts) and how its re2 confirms a hit (`CONFIRM_*`).
 * - A regex without atoms goes to the set shards of the parts it names.
 *
 * Owns: planning (reading each mark's analysis: remembered, stored or made) and the plan's layout.
 * Does not own: analysing (atoms.ts), building the automaton (aho-corasick.ts) or matching
 * (match-parts.ts).
 */
import { MAIL_PARTS, scannedParts, type MailPart } from '../mail/index.ts';
import { boundedLiteral } from './bounded-literal.ts';
import { decodeAnalysis, encodeAnalysis, type RegexAnalysis } from './mark-analysis.ts';
import type { Mark } from './matcher.ts';
import type { MatchingRuntime } from './matching-runtime.ts';
import { grow } from './typed-arrays.ts';

export const KIND_LITERAL = 0;
const KIND_ATOMS = 1;
const KIND_SET = 2;

/** How a regex mark with atoms is confirmed (see compile-matcher.ts). */
export const CONFIRM_WINDOW = 0; // re2 on a window around each atom hit
export const CONFIRM_ANCHORED = 1; // re2 anchored at each position where a match could start
export const CONFIRM_WHOLE = 2; // re2 on the whole part

/** A part's bit in a mark's part mask: 1 << its index in MAIL_PARTS. */
const PART_BIT = Object.fromEntries(MAIL_PARTS.map((p, i) => [p, 1 << i])) as Record<MailPart, number>;

/** Stored regex analyses for a compile (see CompileOptions.stored). */
export interface StoredAnalyses {
  /** `encodeAnalysis` text by source (ANALYSER_VERSION's). */
  readonly known: ReadonlyMap<string, string>;
  /** Called with each regex source of the marks that `known` lacks (or holds damaged), and its text to keep. */
  readonly onAnalysed: (source: string, text: string) => void;
}

/** The plan, by mark index m (see the module comment). */
export interface MarkPlan {
  readonly kind: Uint8Array;
  readonly partMask: Uint8Array;
  readonly literalLength: Int32Array;
  /** A literal's `\b`: BOUNDARY_BEFORE | BOUNDARY_AFTER (bounded-literal.ts). */
  readonly boundary: Uint8Array;
  readonly confirmHow: Uint8Array;
  /** Where a match can lie around an atom hit [start, end]: at most this far before the start, -1 when unbounded. */
  readonly lead: Int32Array;
  /** At most this far after the end, -1 when unbounded. */
  readonly trail: Int32Array;
  /** 1 when the text before the hit can hold a stop character. */
  readonly leadStops: Uint8Array;
  readonly trailStops: Uint8Array;
  /**
   * What may stand next to a hit (SourceAnalysis.before/after): row r of `contextTable` (128 entries
   * over ASCII, 1 = allowed) for the code unit before (`beforeRow`) or after (`afterRow`), -1 for any.
   */
  readonly beforeRow: Int32Array;
  readonly afterRow: Int32Array;
  /** A run then a literal after a hit (SourceAnalysis.gap): the run's row (-1: none), its length bounds, the literal. */
  readonly gapRow: Int32Array;
  readonly gapMin: Int32Array;
  readonly gapMax: Int32Array;
  readonly gapLiteral: readonly string[];
  readonly contextTable: Uint8Array;
  /** A regex mark's source id: marks with the same source share their re2 objects. */
  readonly sourceOf: Int32Array;
  readonly sources: readonly string[];
  /**
   * A regex mark's required literals (SourceAnalysis.required): keys of the automaton that must all
   * hit in a part before its re2 is run there: required[requiredFrom[m] .. requiredTo[m]).
   */
  readonly requiredFrom: Int32Array;
  readonly requiredTo: Int32Array;
  readonly required: Int32Array;
  /** Key k's marks: keyMark[keyStart[k] .. keyStart[k + 1]), in mark order. */
  readonly keyStart: Int32Array;
  readonly keyMark: Int32Array;
  readonly keyLength: Int32Array;
  /** Marks without atoms, by part index. */
  readonly setMarksByPart: readonly (readonly number[])[];
  readonly literalMarks: number;
  readonly atomMarks: number;
  readonly setMarks: number;
}

/** The plan's fields `absorb` fills in (the rest are made by `finish`). */
type PlannedField = Exclude<
  keyof MarkPlan,
  | 'contextTable'
  | 'required'
  | 'keyStart'
  | 'keyMark'
  | 'keyLength'
  | 'gapLiteral'
  | 'sources'
  | 'setMarksByPart'
>;

/** Index of `value` in `list`, added at its end when new. */
function indexIn<T>(index: Map<T, number>, list: T[], value: T): number {
  let i = index.get(value);
  if (i === undefined) {
    i = list.length;
    index.set(value, i);
    list.push(value);
  }
  return i;
}

/** Builds a {@link MarkPlan}: `absorb` the marks in chunks, build the automaton over `keys`, then `finish`. */
export class MarkPlanner {
  /** The automaton's keys, in key order. */
  readonly keys: string[] = [];
  /** The plan's per-mark tables, filled in by `absorb`. */
  private readonly p: { -readonly [K in PlannedField]: MarkPlan[K] };
  private readonly requiredKey: number[] = [];
  private readonly gapLiteral: string[] = [];
  private readonly sources: string[] = [];
  private readonly setMarksByPart: number[][] = MAIL_PARTS.map(() => []);
  private readonly contextRows = new Map<Uint8Array, number>();
  private readonly contextList: Uint8Array[] = [];
  private readonly keyIndex = new Map<string, number>();
  private readonly sourceIndex = new Map<string, number>();
  // (key, mark) pairs, grouped by key in `finish`.
  private pairKey: Int32Array<ArrayBuffer>;
  private pairMark: Int32Array<ArrayBuffer>;
  private pairs = 0;

  constructor(
    n: number,
    private readonly stored: StoredAnalyses | undefined,
    private readonly runtime: MatchingRuntime,
  ) {
    this.p = {
      kind: new Uint8Array(n),
      partMask: new Uint8Array(n),
      literalLength: new Int32Array(n),
      boundary: new Uint8Array(n),
      confirmHow: new Uint8Array(n),
      lead: new Int32Array(n),
      trail: new Int32Array(n),
      leadStops: new Uint8Array(n),
      trailStops: new Uint8Array(n),
      beforeRow: new Int32Array(n).fill(-1),
      afterRow: new Int32Array(n).fill(-1),
      gapRow: new Int32Array(n).fill(-1),
      gapMin: new Int32Array(n),
      gapMax: new Int32Array(n),
      sourceOf: new Int32Array(n).fill(-1),
      requiredFrom: new Int32Array(n),
      requiredTo: new Int32Array(n),
      literalMarks: 0,
      atomMarks: 0,
      setMarks: 0,
    };
    this.pairKey = new Int32Array(Math.max(16, n + (n >> 1)));
    this.pairMark = new Int32Array(this.pairKey.length);
  }

  /** Plans marks[from .. to) (a plain method call: a generator's own loops are not optimised). */
  absorb(marks: readonly Mark[], from: number, to: number): void {
    for (let m = from; m < to; m++) {
      const mark = marks[m] as Mark;
      let mask = 0;
      // a body mark is looked for in the quoted part too (mail/parts.ts scannedParts)
      for (const part of scannedParts(mark.parts)) mask |= PART_BIT[part];
      this.p.partMask[m] = mask;
      const { literal, boundary: ends } = boundedLiteral(mark.source);
      if (literal !== null) {
        this.p.kind[m] = KIND_LITERAL;
        this.p.literalLength[m] = literal.length;
        this.p.boundary[m] = ends;
        this.addKey(literal, m);
        this.p.literalMarks++;
        continue;
      }
      const a = this.analyse(mark.source);
      if (a.atoms !== null) this.planAtoms(m, mark.source, a, a.atoms);
      else {
        this.p.kind[m] = KIND_SET;
        this.p.sourceOf[m] = indexIn(this.sourceIndex, this.sources, mark.source);
        for (let i = 0; i < MAIL_PARTS.length; i++)
          if ((mask & (1 << i)) !== 0) (this.setMarksByPart[i] as number[]).push(m);
        this.p.setMarks++;
      }
    }
  }

  /** The plan, once the automaton is built over `keys`; lets go of what only planning needs. */
  finish(): MarkPlan {
    const keyCount = this.keys.length;
    const { keyStart, keyMark } = groupByKey(this.pairKey, this.pairMark, this.pairs, keyCount);
    const keyLength = new Int32Array(keyCount);
    for (let k = 0; k < keyCount; k++) keyLength[k] = (this.keys[k] as string).length;
    const contextTable = new Uint8Array(this.contextList.length * 128);
    this.contextList.forEach((table, r) => contextTable.set(table, r * 128));
    this.contextRows.clear();
    this.contextList.length = 0;
    this.keyIndex.clear();
    this.sourceIndex.clear();
    this.keys.length = 0;
    this.pairKey = new Int32Array(0);
    this.pairMark = new Int32Array(0);
    return {
      ...this.p,
      gapLiteral: this.gapLiteral,
      sources: this.sources,
      setMarksByPart: this.setMarksByPart,
      contextTable,
      required: Int32Array.from(this.requiredKey),
      keyStart,
      keyMark,
      keyLength,
    };
  }

  private planAtoms(m: number, source: string, a: RegexAnalysis, atoms: readonly string[]): void {
    this.p.kind[m] = KIND_ATOMS;
    this.p.sourceOf[m] = indexIn(this.sourceIndex, this.sources, source);
    this.p.lead[m] = a.lead;
    this.p.trail[m] = a.trail;
    this.p.leadStops[m] = a.leadStops ? 1 : 0;
    this.p.trailStops[m] = a.trailStops ? 1 : 0;
    this.p.beforeRow[m] = this.rowOf(a.before);
    this.p.afterRow[m] = this.rowOf(a.after);
    if (a.gap !== null) {
      this.p.gapRow[m] = this.rowOf(a.gap.run);
      this.p.gapMin[m] = a.gap.min;
      this.p.gapMax[m] = Math.min(a.gap.max, 0x7fffffff);
      this.gapLiteral[m] = a.gap.literal;
    }
    this.p.confirmHow[m] =
      a.trail >= 0 || !a.trailStops
        ? CONFIRM_WINDOW
        : a.lead >= 0 || !a.leadStops
          ? CONFIRM_ANCHORED
          : CONFIRM_WHOLE;
    for (const atom of atoms) this.addKey(atom, m);
    this.p.requiredFrom[m] = this.requiredKey.length;
    for (const r of a.required)
      if (atoms.length !== 1 || atoms[0] !== r) this.requiredKey.push(indexIn(this.keyIndex, this.keys, r));
    this.p.requiredTo[m] = this.requiredKey.length;
    this.p.atomMarks++;
  }

  private rowOf(table: Uint8Array | null): number {
    return table === null ? -1 : indexIn(this.contextRows, this.contextList, table);
  }

  private addKey(key: string, mark: number): void {
    const k = indexIn(this.keyIndex, this.keys, key);
    if (this.pairs === this.pairKey.length) {
      this.pairKey = grow(this.pairKey);
      this.pairMark = grow(this.pairMark);
    }
    this.pairKey[this.pairs] = k;
    this.pairMark[this.pairs++] = mark;
  }

  /**
   * The analysis of a regex mark source (one that is not a plain literal): remembered by the
   * runtime, else read from `stored`, else analysed here. When `stored` was given and did not hold
   * it, it is handed to `onAnalysed` in its stored form.
   */
  private analyse(source: string): RegexAnalysis {
    const { stored, runtime } = this;
    const text = stored?.known.get(source);
    const known = runtime.rememberedAnalysis(source);
    if (known !== undefined) {
      if (stored !== undefined && text === undefined) stored.onAnalysed(source, encodeAnalysis(known));
      return known;
    }
    const decoded = text === undefined ? null : decodeAnalysis(text, runtime.decodedTables);
    if (decoded !== null) {
      runtime.rememberAnalysis(source, decoded);
      return decoded;
    }
    const a = runtime.analysedRegex(source);
    stored?.onAnalysed(source, encodeAnalysis(a));
    return a;
  }
}

/**
 * The (key, mark) pairs grouped by key, a counting sort that keeps marks in order: key k's marks are
 * keyMark[keyStart[k] .. keyStart[k + 1]). A module-level function: a generator's own loops are not
 * optimised, and this one's optimised code carries over from one compile to the next.
 */
function groupByKey(
  pairKey: Int32Array,
  pairMark: Int32Array,
  pairs: number,
  keyCount: number,
): { keyStart: Int32Array; keyMark: Int32Array } {
  const keyStart = new Int32Array(keyCount + 1);
  for (let i = 0; i < pairs; i++) {
    const next = (pairKey[i] as number) + 1;
    keyStart[next] = (keyStart[next] as number) + 1;
  }
  for (let k = 0; k < keyCount; k++) keyStart[k + 1] = (keyStart[k + 1] as number) + (keyStart[k] as number);
  const fill = keyStart.slice(0, keyCount);
  const keyMark = new Int32Array(pairs);
  for (let i = 0; i < pairs; i++) {
    const k = pairKey[i] as number;
    const at = fill[k] as number;
    keyMark[at] = pairMark[i] as number;
    fill[k] = at + 1;
  }
  return { keyStart, keyMark };
}
