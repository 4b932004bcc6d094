/**
 * Compiling in steps: a build written as a generator that pauses (yields) every few thousand
 * iterations, so a caller may run it in slices without blocking the event loop (compileMatcherAsync)
 * or to its end at once. Owns nothing else.
 */

/** Runs a step generator to its end, without pausing. */
export function runSteps<T>(steps: Generator<void, T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done === true) return r.value;
  }
}

/** Iterations of a build loop between two pauses of a step generator. */
export const STEP = 4096;

/** Calls `run` on [0, count) in ranges of {@link STEP}, pausing after each. */
export function* chunks(count: number, run: (from: number, to: number) => void): Generator<void, void> {
  for (let from = 0; from < count; from += STEP) {
    run(from, Math.min(count, from + STEP));
    yield;
  }
}
