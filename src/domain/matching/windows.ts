/**
 * Where a confirming re2 looks around atom hits (§13.3): ranges of code units, kept sorted, and the
 * stop characters that bound a side of a match without a length bound.
 *
 * Owns: the ranges and the stop scans. Does not own: searching them (subject.ts).
 */
import { isStopCode } from './fold.ts';
import { grow } from './typed-arrays.ts';

/**
 * Farthest a stop character is looked for from a hit (code units). Beyond it the side counts as
 * unbounded (a looser bound, so still exact), which keeps a long token without whitespace (a
 * base64 blob, say) from costing a scan per hit.
 */
export const STOP_SCAN_LIMIT = 512;

/** Index of the last stop character before `at`, or -1 when there is none within the limit. */
export function stopBefore(text: string, at: number): number {
  const limit = Math.max(0, at - STOP_SCAN_LIMIT);
  let i = at - 1;
  while (i >= limit && !isStopCode(text.charCodeAt(i))) i--;
  return i >= limit ? i : -1;
}

/** Index of the first stop character after `at`, or the text's length when there is none within the limit. */
export function stopAfter(text: string, at: number): number {
  const limit = Math.min(text.length, at + 1 + STOP_SCAN_LIMIT);
  let i = at + 1;
  while (i < limit && !isStopCode(text.charCodeAt(i))) i++;
  return i < limit ? i : text.length;
}

/**
 * Ranges [from, to] of code units (clamped by the caller's text), kept sorted and merged: a
 * candidate's hits come in order of their end, so each new range almost always sorts last.
 */
export class Windows {
  from = new Int32Array(64);
  to = new Int32Array(64);
  count = 0;

  clear(): void {
    this.count = 0;
  }

  add(from: number, to: number): void {
    let i = this.count;
    if (i === this.from.length) {
      this.from = grow(this.from);
      this.to = grow(this.to);
    }
    // Insertion keeps them sorted by start.
    while (i > 0 && (this.from[i - 1] as number) > from) {
      this.from[i] = this.from[i - 1] as number;
      this.to[i] = this.to[i - 1] as number;
      i--;
    }
    this.from[i] = from;
    this.to[i] = to;
    this.count++;
  }
}
