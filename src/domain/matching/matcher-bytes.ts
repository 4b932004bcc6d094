/**
 * What one compiled matcher costs in memory, estimated (matchers are bounded per process
 * by a byte budget, matcher-cache.ts). The estimate is the matcher's own typed arrays, counted
 * exactly by their byteLength (the automaton's tables, the plan's columns: most of a large
 * matcher), plus measured constants for what V8 and re2 do not let us count: the JS objects per
 * mark (the caller's mark objects, kept by the matcher, and the plan's arrays of strings), each
 * RE2.Set shard and each confirming re2 object kept (native memory, confirm-cache.ts).
 *
 * How the constants were measured (node --expose-gc, Node 20, two gc() before each reading; RSS
 * delta over compiles kept alive; marks of the bench directory's shape, one `@k…\.example` per
 * customer, and of the matching bench's synthetic mix, 30% regexes). Measured RSS per mark against
 * this estimate, with these constants:
 *
 * | marks × matchers | directory shape     | synthetic mix        |
 * | 100,000 × 1      | 524 B, est. 595 B   | 715 B, est. 751 B    |
 * | 1,000 × 100      | 1.18 KB, est. 1.3 KB| 2.41 KB, est. 2.9 KB |
 * | 10 × 1,000       | 5.2 KB, est. 4.8 KB | 7.5 KB, est. 10.7 KB |
 *
 * Within ~25%, mostly high (an estimate that errs high keeps RSS under the budget). The typed
 * arrays dominate large matchers; the fixed part (MATCHER_BASE_BYTES) small ones.
 *
 * Measured again for issue 51 as what forgetting a matcher frees (bench/tenant-estimate.ts: used
 * heap plus external memory between collections), on Node 20 and 24, 1,000 and 10,000 customers of
 * two directory shapes: the marks' JS objects had grown (280 → 400 B a mark), and Node 24 holds
 * 15–25 % less than Node 20 for the same matcher. tenant-memory-estimate.test.ts keeps every case
 * within 25 %.
 *
 * Owns: the estimate. Does not own: what is kept (compile-matcher.ts, confirm-cache.ts) or the
 * budget (matcher-cache.ts).
 */

/** A compiled matcher's fixed cost: its closures, scratch views, per-part lists (bytes). */
export const MATCHER_BASE_BYTES = 32 * 1024;
/** JS objects per mark the matcher keeps (the mark object itself, its slots in the plan's arrays), bytes. */
export const JS_BYTES_PER_MARK = 400;
/** Native memory of one RE2.Set shard before its patterns (its program and DFA budget as grown), bytes. */
export const SET_SHARD_BYTES = 48 * 1024;
/** Native memory per pattern in an RE2.Set shard, bytes. */
export const SET_BYTES_PER_PATTERN = 2 * 1024;
/** Native memory of one kept confirming re2 object (docs/matching.md measured 5–13 KB), bytes. */
export const RE2_BYTES = 10 * 1024;

/**
 * Bytes held by typed arrays among `roots`' own values, two levels deep (arrays of typed arrays
 * included); a buffer seen twice is counted once.
 */
export function typedArrayBytes(...roots: readonly unknown[]): number {
  const seen = new Set<ArrayBufferLike>();
  let total = 0;
  const visit = (value: unknown, depth: number): void => {
    if (ArrayBuffer.isView(value)) {
      if (!seen.has(value.buffer)) {
        seen.add(value.buffer);
        total += value.buffer.byteLength;
      }
      return;
    }
    if (depth === 0 || value === null || typeof value !== 'object') return;
    const values = Array.isArray(value) ? (value as unknown[]) : Object.values(value);
    // A long plain array holds marks or strings, not typed arrays: those are JS_BYTES_PER_MARK's.
    if (values.length > 64 && !ArrayBuffer.isView(values[0]) && !Array.isArray(values[0])) return;
    for (const v of values) visit(v, depth - 1);
  };
  for (const root of roots) visit(root, 2);
  return total;
}
