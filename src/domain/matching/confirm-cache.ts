/**
 * The confirming re2 objects of one compiled matcher (§13.3), and why so few are kept: see
 * `createConfirmCache`. The budget of evicted objects waiting for collection is the runtime's
 * (matching-runtime.ts), shared by every matcher made over it.
 *
 * Owns: making, keeping and evicting those objects. Does not own: when they run (compile-matcher.ts).
 */
import RE2 from 're2';
import type { EvictionBudget } from './matching-runtime.ts';

/** A matcher's confirming re2 objects, by source id (mark-plan.ts `sources`). */
export interface ConfirmCache {
  /** The source's re2 with flag 'g': a search may start at lastIndex. */
  searching(source: number): RE2;
  /** The source's re2 with flag 'y': a match must start at lastIndex. */
  anchored(source: number): RE2;
  /** How many re2 objects are kept compiled now (each holds native memory: matcher-bytes.ts). */
  kept(): number;
}

/**
 * Compiled re2 objects by source and use, made on first use; at most `capacity` are kept in all.
 * Flags are 'iu' plus 'g' (`searching`: a search may start at lastIndex) or 'y' (`anchored`: a match
 * must start at lastIndex); neither changes what matches where.
 *
 * Each object holds re2 native memory (its programs and lazily grown DFAs, ~5–13 KB for a mark's
 * small pattern) that V8 does not see. An object dropped young is freed by the next cheap young
 * collection; one kept long enough to reach the old generation is freed only by a full collection,
 * which nothing hurries along (the JS heap hardly grows while matching). So keeping and evicting
 * freely piles up dead native memory (docs/matching.md has the measurements). Hence:
 * - until the cache is full, every object is kept;
 * - then an object is kept only when its regex is needed a second time within the last
 *   `capacity / GHOST_SHARE` one-off compiles (a one-off is used and dropped young);
 * - keeping it evicts one by CLOCK (second chance: an object used since the hand last passed stays),
 *   and is allowed only while fewer than {@link EVICTED_BUDGET} evicted objects of the runtime still
 *   wait to be collected (a FinalizationRegistry counts them down).
 */
export function createConfirmCache(
  sources: readonly string[],
  capacity: number,
  counts: { compiles: number },
  evicted: EvictionBudget,
): ConfirmCache {
  const compiled: (RE2 | undefined)[] = new Array<RE2 | undefined>(sources.length * 2);
  // Never more slots than entries a matcher can hold: a 10-mark matcher need not carry 2,048.
  const size = Math.max(1, Math.min(capacity, sources.length * 2));
  const ring = new Int32Array(size).fill(-1); // entry: source * 2 + (anchored ? 1 : 0)
  const used = new Uint8Array(sources.length * 2);
  const ghost = new Uint8Array(sources.length * 2); // compiled once lately and not kept
  const ghostLimit = Math.max(1, Math.floor(size / GHOST_SHARE));
  let ghosts = 0;
  let filled = 0;
  let hand = 0;
  const get = (entry: number): RE2 => {
    let re = compiled[entry];
    if (re !== undefined) {
      used[entry] = 1;
      return re;
    }
    re = new RE2(sources[entry >> 1] as string, (entry & 1) === 0 ? 'giu' : 'iuy');
    counts.compiles++;
    if (filled < size) {
      compiled[entry] = re;
      ring[filled++] = entry;
      return re;
    }
    if (ghost[entry] === 0) {
      ghost[entry] = 1;
      if (++ghosts >= ghostLimit) {
        ghost.fill(0);
        ghosts = 0;
      }
      return re;
    }
    if (evicted.waiting >= EVICTED_BUDGET) return re;
    for (;;) {
      const old = ring[hand] as number;
      if (used[old] === 0) break;
      used[old] = 0;
      hand = hand + 1 === size ? 0 : hand + 1;
    }
    const victim = ring[hand] as number;
    evicted.registry.register(compiled[victim] as RE2, undefined);
    evicted.waiting++;
    compiled[victim] = undefined;
    compiled[entry] = re;
    ring[hand] = entry;
    hand = hand + 1 === size ? 0 : hand + 1;
    return re;
  };
  return {
    searching: (source) => get(source * 2),
    anchored: (source) => get(source * 2 + 1),
    kept: () => filled,
  };
}

/** One-off compiles remembered: `capacity / GHOST_SHARE` of them (chosen by RSS: docs/matching.md). */
const GHOST_SHARE = 4;

/**
 * Most evicted re2 objects of a runtime that may wait for collection at once (~13 KB each); past
 * it, objects are used and dropped young instead of kept (chosen by RSS: docs/matching.md).
 */
const EVICTED_BUDGET = 256;
