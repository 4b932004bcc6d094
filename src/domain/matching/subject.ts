/**
 * One part's text as re2 sees it (§13.3): its UTF-8 bytes, made once, code-unit to byte offsets,
 * and the searches a confirmation runs on them (windows, anchored positions, set shards).
 *
 * Owns: the bytes, the offsets, the scratch buffers they are made in (one per runtime) and the
 * searches. Does not own: which regex runs where (compile-matcher.ts).
 */
import type RE2 from 're2';
import type { Shard } from './set-shards.ts';
import type { Windows } from './windows.ts';

/** Windows closer than this many code units are searched as one (one re2 call instead of two). */
const MERGE_GAP = 32;

/**
 * One part's text as re2 sees it: UTF-8 bytes made once per part, when first needed, so
 * confirmations do not convert the string again (node-re2 caches only the last string per regex,
 * and a short string costs re2 about twice what a slice of bytes does), with code-unit to byte
 * offsets when the text is not ASCII.
 */
export class Subject {
  private bytesCache: Buffer | null = null;
  private offsets: ((unit: number) => number) | null = null;

  constructor(
    private readonly text: string,
    private readonly scratch: Scratch,
  ) {}

  private get bytes(): Buffer {
    this.bytesCache ??= this.scratch.utf8Bytes(this.text);
    return this.bytesCache;
  }

  /** re2's leftmost match at or after code unit `from`, as text, or null. */
  exec(re: RE2, from: number): string | null {
    const bytes = this.bytes;
    re.lastIndex = this.byteOffset(from);
    const m = re.exec(bytes);
    re.lastIndex = 0;
    return m === null ? null : m[0].toString('utf8');
  }

  /**
   * re2's leftmost match in the whole text, for a regex each of whose matches lies inside one of
   * `windows` (ranges of code units, sorted by start; `re` has flag 'g').
   *
   * re2 runs only on those windows (merged, in order), each cut two code units wider on both sides
   * so that `\b`, `^` and `$` see their real neighbours, and searching from the window's start. A
   * match that ends inside the window proper is a match of the whole text, and the first window
   * holding one holds the leftmost; one that runs to the cut edge is set aside for one exact search
   * of the whole text from that window.
   */
  searchWindows(re: RE2, windows: Windows): string | null {
    const text = this.text;
    const length = text.length;
    const froms = windows.from;
    const tos = windows.to;
    const count = windows.count;
    let i = 0;
    while (i < count) {
      let start = Math.max(0, froms[i] as number);
      let stop = Math.min(length - 1, tos[i] as number);
      i++;
      while (i < count && (froms[i] as number) <= stop + MERGE_GAP) {
        stop = Math.max(stop, Math.min(length - 1, tos[i] as number));
        i++;
      }
      if (stop < start) continue;
      if (start > 0 && isLowSurrogate(text.charCodeAt(start))) start--;
      let cutFrom = Math.max(0, start - 2);
      let cutTo = Math.min(length, stop + 3);
      if (cutFrom > 0 && isLowSurrogate(text.charCodeAt(cutFrom))) cutFrom--;
      if (cutTo < length && isLowSurrogate(text.charCodeAt(cutTo))) cutTo++;
      if (cutFrom === 0 && cutTo === length) return this.exec(re, start);
      const bytes = this.bytes;
      const cutFromByte = this.byteOffset(cutFrom);
      re.lastIndex = this.byteOffset(start) - cutFromByte;
      const m = re.exec(bytes.subarray(cutFromByte, this.byteOffset(cutTo)));
      re.lastIndex = 0;
      if (m === null) continue;
      const matchTo = cutFromByte + m.index + m[0].length;
      return cutTo === length || matchTo <= this.byteOffset(stop + 1)
        ? m[0].toString('utf8')
        : this.exec(re, start);
    }
    return null;
  }

  /**
   * re2's leftmost match in the whole text, for a regex each of whose matches starts inside one of
   * `windows` (ranges of code units, sorted by start; `re` has flag 'y'): the leftmost position in
   * them where an anchored match exists starts the leftmost match.
   */
  anchoredAt(re: RE2, windows: Windows): string | null {
    const bytes = this.bytes;
    let next = 0; // first position not tried yet
    for (let w = 0; w < windows.count; w++) {
      const to = windows.to[w] as number;
      for (let at = Math.max(next, windows.from[w] as number, 0); at <= to; at++) {
        const byte = this.byteOffset(at);
        if (at > 0 && byte === this.byteOffset(at - 1)) continue; // inside a surrogate pair
        re.lastIndex = byte;
        const m = re.exec(bytes);
        if (m !== null) {
          re.lastIndex = 0;
          return m[0].toString('utf8');
        }
      }
      next = Math.max(next, to + 1);
    }
    re.lastIndex = 0;
    return null;
  }

  /** Indices (in `shard.marks`) of the shard's marks that match. */
  setMatches(shard: Shard): readonly number[] {
    if (shard.set !== null) {
      try {
        return shard.set.match(this.bytes).map((i) => shard.marks[i] as number);
      } catch {
        // "RE2.Set matching failed: out of memory": fall back to each mark's own re2 below.
      }
    }
    return shard.marks;
  }

  private byteOffset(unit: number): number {
    if (unit === 0) return 0;
    const bytes = this.bytes;
    const text = this.text;
    if (bytes.length === text.length) return unit; // ASCII
    if (this.offsets === null) {
      // A few non-ASCII characters in a long text (a name in a manifest): find them natively and
      // count around them, instead of a pass over every code unit (~0.4 ms per 50 KB).
      if ((bytes.length - text.length) * SPARSE_SHARE < text.length) this.offsets = sparseOffsets(text);
      else {
        const dense = this.scratch.utf8Offsets(text);
        this.offsets = (u) => dense[u] as number;
      }
    }
    return this.offsets(unit);
  }
}

/** Below one extra UTF-8 byte per this many code units, byte offsets are found the sparse way. */
const SPARSE_SHARE = 16;

/**
 * Code unit -> byte offset in `text` as UTF-8, as `utf8Offsets` gives it (a low surrogate of a pair
 * maps to its pair's start), from the runs of non-ASCII code units alone. Exported for its test.
 */
export function sparseOffsets(text: string): (unit: number) => number {
  const from: number[] = [];
  const to: number[] = [];
  const before: number[] = []; // extra bytes (bytes minus code units) before each run
  let extra = 0;
  const nonAscii = /[\u0080-\uffff]+/g; // runs of non-ASCII code units (a regex of its own: it keeps lastIndex)
  for (let m = nonAscii.exec(text); m !== null; m = nonAscii.exec(text)) {
    from.push(m.index);
    to.push(m.index + m[0].length);
    before.push(extra);
    for (let i = m.index; i < m.index + m[0].length; i++) extra += extraBytes(text, i);
  }
  const runs = from.length;
  const at = (unit: number): number => {
    // The last run starting at or before `unit`.
    let lo = 0;
    let hi = runs - 1;
    let r = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if ((from[mid] as number) <= unit) {
        r = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (r === -1) return unit;
    if (unit >= (to[r] as number)) return unit + (r + 1 < runs ? (before[r + 1] as number) : extra);
    if (isLowSurrogate(text.charCodeAt(unit)) && isHighSurrogate(text.charCodeAt(unit - 1)))
      return at(unit - 1);
    let e = before[r] as number;
    for (let i = from[r] as number; i < unit; i++) e += extraBytes(text, i);
    return unit + e;
  };
  return at;
}

/** UTF-8 bytes of code unit i less one (a pair's high surrogate takes the pair's four, its low none). */
function extraBytes(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 0x80) return 0;
  if (c < 0x800) return 1;
  if (isHighSurrogate(c) && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1))) return 3;
  if (isLowSurrogate(c) && i > 0 && isHighSurrogate(text.charCodeAt(i - 1))) return -1;
  return 2;
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/**
 * Longest text (code units) whose bytes and offsets go to a runtime's scratch buffers. Parts are
 * converted one at a time and only read before the next part is, so one buffer serves every matcher
 * of the runtime; reusing it keeps a large message's bytes from being allocated and freed per part,
 * which interleaved with long-lived re2 objects fragments the native heap (RSS grows).
 */
const SCRATCH_UNITS = 1 << 20;

/** A runtime's scratch buffers (matching-runtime.ts): what they hold is valid until the next call. */
export interface Scratch {
  /** `text` as UTF-8 (as `Buffer.from` makes it), valid until the next call. */
  utf8Bytes(text: string): Buffer;
  /**
   * Byte offset of each code unit (a low surrogate of a pair maps to its pair's start), valid until
   * the next call.
   */
  utf8Offsets(text: string): Uint32Array;
  /** Lets go of the buffers (they may hold a message's text). */
  clear(): void;
}

export function createScratch(): Scratch {
  let scratchBytes = Buffer.allocUnsafeSlow(0);
  let scratchOffsets = new Uint32Array(0);
  return {
    utf8Bytes(text) {
      if (text.length > SCRATCH_UNITS) return Buffer.from(text, 'utf8');
      const need = text.length * 3; // a code unit takes at most 3 bytes (a pair takes 4 for two)
      if (scratchBytes.length < need)
        scratchBytes = Buffer.allocUnsafeSlow(
          Math.min(SCRATCH_UNITS * 3, Math.max(need, scratchBytes.length * 2, 1 << 16)),
        );
      return scratchBytes.subarray(0, scratchBytes.write(text, 0, 'utf8'));
    },
    utf8Offsets(text) {
      let offsets: Uint32Array;
      if (text.length > SCRATCH_UNITS) offsets = new Uint32Array(text.length + 1);
      else {
        if (scratchOffsets.length < text.length + 1)
          scratchOffsets = new Uint32Array(
            Math.min(SCRATCH_UNITS + 1, Math.max(text.length + 1, scratchOffsets.length * 2, 1 << 14)),
          );
        offsets = scratchOffsets;
      }
      return fillUtf8Offsets(text, offsets);
    },
    clear() {
      scratchBytes = Buffer.allocUnsafeSlow(0);
      scratchOffsets = new Uint32Array(0);
    },
  };
}

/**
 * Byte offset of each code unit of `text` (a low surrogate of a pair maps to its pair's start), in
 * a buffer of its own. Exported for the test of `sparseOffsets`.
 */
export function utf8Offsets(text: string): Uint32Array {
  return fillUtf8Offsets(text, new Uint32Array(text.length + 1));
}

function fillUtf8Offsets(text: string, offsets: Uint32Array): Uint32Array {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    offsets[i] = bytes;
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        offsets[i + 1] = bytes;
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  offsets[text.length] = bytes;
  return offsets;
}
