/**
 * A regex mark's analysis as the compile uses it, and its stored form (§13.3, issue 3 "compile").
 *
 * Analysing a regex source (parsing it, finding its atoms and contexts) is most of a compile, and
 * slower still in a fresh process (docs/matching.md, "Kept analyses"). An analysis depends on
 * nothing but its source, and absorbing a lesson already analyses every regex mark it
 * teaches (pattern.ts refuses one without atoms), so it is kept: a compile reads what is stored,
 * analyses only what is not, and hands those back to be stored.
 *
 * The stored form is opaque text, versioned by {@link ANALYSER_VERSION}: a row written by another
 * analyser version is never read (mark-analysis.test.ts fails until the version changes with the
 * analysis). A row that does not decode is analysed afresh, never trusted, so a damaged store costs
 * time, not answers or a crash.
 *
 * A runtime also remembers analyses by source (matching-runtime.ts `analysedRegex`): a learnable
 * that judges a regex mark at absorption with the server's runtime leaves its analysis there, so
 * the compile of the version that lesson makes finds it rather than analysing it again.
 *
 * Owns: the shape, the codec and the storage port. Does not own: analysing (atoms.ts), remembering
 * (matching-runtime.ts), compiling (compile-matcher.ts) or where rows live (src/store).
 */
import type { TenantId } from '../tenant.ts';
import type { SourceAnalysis } from './atoms.ts';
import { isFoldedAscii } from './fold.ts';

/**
 * What the compile needs to know about one regex source (see SourceAnalysis): lead and trail are
 * its maxPrefix and maxSuffix, -1 when unbounded.
 */
export interface RegexAnalysis {
  readonly atoms: readonly string[] | null;
  readonly lead: number;
  readonly trail: number;
  readonly leadStops: boolean;
  readonly trailStops: boolean;
  readonly required: readonly string[];
  readonly before: Uint8Array | null;
  readonly after: Uint8Array | null;
  readonly gap: SourceAnalysis['gap'];
}

/**
 * The analyser whose rows a compile may read: change it whenever the analysis of any source
 * changes (mark-analysis.test.ts says when, by a fingerprint of the analyses of ~6,000 sources).
 */
export const ANALYSER_VERSION = 'a2-cb26aa0ac288';

/** The compile's view of `analyseSource`'s result. */
export function regexAnalysis(a: SourceAnalysis): RegexAnalysis {
  return {
    atoms: a.atoms,
    lead: a.maxPrefix ?? -1,
    trail: a.maxSuffix ?? -1,
    leadStops: a.prefixStops,
    trailStops: a.suffixStops,
    required: a.required,
    before: a.before,
    after: a.after,
    gap: a.gap,
  };
}

/** The stored form of `a` (JSON text; see {@link decodeAnalysis}). */
export function encodeAnalysis(a: RegexAnalysis): string {
  return JSON.stringify([
    a.atoms,
    a.lead,
    a.trail,
    (a.leadStops ? 1 : 0) | (a.trailStops ? 2 : 0),
    a.required,
    a.before === null ? null : tableHex(a.before),
    a.after === null ? null : tableHex(a.after),
    a.gap === null
      ? null
      : [tableHex(a.gap.run), a.gap.min, a.gap.max === Infinity ? -1 : a.gap.max, a.gap.literal],
  ]);
}

/**
 * `encodeAnalysis`'s text back, or null when it is not one (then the source is analysed again).
 * Equal context tables decode to one shared array of `tables` (by hex form; a runtime's
 * `decodedTables`, a map of its own by default), as the analyser shares them.
 */
export function decodeAnalysis(
  text: string,
  tables: Map<string, Uint8Array> = new Map(),
): RegexAnalysis | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(v) || v.length !== 8) return null;
  // By index, not by destructuring (which goes through the iterator protocol: slow before the JIT warms).
  const atoms: unknown = v[0];
  const lead: unknown = v[1];
  const trail: unknown = v[2];
  const stops: unknown = v[3];
  const required: unknown = v[4];
  const before: unknown = v[5];
  const after: unknown = v[6];
  const gap: unknown = v[7];
  if (atoms !== null && !(isKeyList(atoms) && atoms.length > 0)) return null;
  if (!isBound(lead) || !isBound(trail)) return null;
  if (stops !== 0 && stops !== 1 && stops !== 2 && stops !== 3) return null;
  if (!isKeyList(required)) return null;
  const beforeTable = before === null ? null : tableOf(before, tables);
  const afterTable = after === null ? null : tableOf(after, tables);
  if (beforeTable === undefined || afterTable === undefined) return null;
  let decodedGap: RegexAnalysis['gap'] = null;
  if (gap !== null) {
    if (!Array.isArray(gap) || gap.length !== 4) return null;
    const run: unknown = gap[0];
    const min: unknown = gap[1];
    const max: unknown = gap[2];
    const literal: unknown = gap[3];
    const runTable = tableOf(run, tables);
    if (runTable === undefined || runTable === null) return null;
    if (!Number.isInteger(min) || (min as number) < 0 || !isBound(max) || !isKey(literal)) return null;
    decodedGap = {
      run: runTable,
      min: min as number,
      max: max === -1 ? Infinity : max,
      literal,
    };
  }
  return {
    atoms: atoms as readonly string[] | null,
    lead,
    trail,
    leadStops: (stops & 1) !== 0,
    trailStops: (stops & 2) !== 0,
    required,
    before: beforeTable,
    after: afterTable,
    gap: decodedGap,
  };
}

/**
 * Where analyses are kept, per tenant (§13.2: the tenant is an explicit argument of every call).
 * Values are `encodeAnalysis` text, opaque to the store.
 */
export interface MarkAnalysisStore {
  /** The tenant's stored analyses written by `analyser`, by source. */
  load(tenant: TenantId, analyser: string): Promise<Map<string, string>>;
  /** Keeps `analyses` (by source) for the tenant; rows of any other analyser are dropped. */
  save(tenant: TenantId, analyser: string, analyses: ReadonlyMap<string, string>): Promise<void>;
}

/** An integer bound: a length, or -1 for unbounded. */
function isBound(v: unknown): v is number {
  return Number.isInteger(v) && (v as number) >= -1;
}

/** A non-empty folded ASCII string (what the automaton takes as a key). */
function isKey(v: unknown): v is string {
  return typeof v === 'string' && isFoldedAscii(v);
}

function isKeyList(v: unknown): v is string[] {
  return Array.isArray(v) && v.every(isKey);
}

/** 128 entries of 0 or 1 as 32 hex digits (bit c % 8 of byte c / 8 is entry c). */
function tableHex(table: Uint8Array): string {
  let out = '';
  for (let byte = 0; byte < 16; byte++) {
    let b = 0;
    for (let bit = 0; bit < 8; bit++) if ((table[byte * 8 + bit] as number) !== 0) b |= 1 << bit;
    out += b.toString(16).padStart(2, '0');
  }
  return out;
}

/** Most decoded tables shared at once; the map is emptied when full. */
const MAX_SHARED_TABLES = 4096;

/**
 * The table `tableHex` wrote, shared through `tables` (by hex form: analyses share them, and the
 * compile keys its rows by identity); undefined when `v` is not one.
 */
function tableOf(v: unknown, tables: Map<string, Uint8Array>): Uint8Array | null | undefined {
  if (typeof v !== 'string' || !/^[0-9a-f]{32}$/.test(v)) return undefined;
  let table = tables.get(v);
  if (table === undefined) {
    table = new Uint8Array(128);
    for (let c = 0; c < 128; c++)
      table[c] = (parseInt(v.slice((c >> 3) * 2, (c >> 3) * 2 + 2), 16) >> (c & 7)) & 1;
    if (tables.size >= MAX_SHARED_TABLES) tables.clear();
    tables.set(v, table);
  }
  return table;
}
