/**
 * What the bench sections share for their command-line options and figures: a numeric
 * `--name=value` read with its bound, and rounding to a number of digits.
 */

export interface NumberBound {
  /** 'positive': above 0; 'non-negative': 0 or more. */
  readonly least: 'positive' | 'non-negative';
  /** Only whole numbers. Default false. */
  readonly whole?: boolean;
}

/** `--<name>=<n>` among `args`, or `fallback` when absent; anything outside `bound` is refused in words. */
export function numberOption(
  args: readonly string[],
  name: string,
  fallback: number,
  bound: NumberBound,
): number {
  const raw = args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  const whole = bound.whole === true;
  const inBound = bound.least === 'positive' ? n > 0 : n >= 0;
  if (!(whole ? Number.isInteger(n) : Number.isFinite(n)) || !inBound)
    throw new Error(
      `--${name}= must be a ${whole ? 'whole number' : 'number'} ${bound.least === 'positive' ? 'above 0' : 'of at least 0'}, not "${raw}"`,
    );
  return n;
}

/** `x` rounded to `digits` decimal places. */
export const round = (x: number, digits = 1): number => Math.round(x * 10 ** digits) / 10 ** digits;
