/**
 * The shape checks every learnable's lesson values and stored entries share, and their words:
 * a value's unknown keys, a value of the wrong type, a line break inside a one-line name, and the
 * provenance stamped into what a lesson adds (§13.4), decoded from stored content and copied; and
 * the one rule of a declared creation (issue 12.3).
 *
 * Owns: only these sentences and checks, so that `customers`, `kinds` and `mappings` refuse alike.
 * Does not own: any learnable's keys or vocabulary (each passes its own), nor judging patterns
 * (pattern.ts).
 */
import { isPlainObject } from '../json.ts';
import type { Learnable, LessonValue, Provenance } from './learnable.ts';

/** "a", "a and b", "a, b and c" */
export function listWords(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words.at(-1)!}`;
}

/** "a list", "an object", "a number", … for a value that should have been text. */
export function describeType(v: unknown): string {
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'an object';
  return `a ${typeof v}`;
}

/**
 * §10.1: the refusal for keys of `value` its learnable does not take, or null when there are none.
 * `lesson` names the kind of lesson ("customer lesson"); `takes` says what it takes instead.
 */
export function unknownKeysRefusal(
  value: LessonValue,
  keys: readonly string[],
  lesson: string,
  takes: string,
): string | null {
  const unknown = Object.keys(value).filter((k) => !keys.includes(k) && value[k] !== undefined);
  if (unknown.length === 0) return null;
  return `${listWords(unknown.map((k) => `"${k}"`))} ${unknown.length === 1 ? 'is not a field' : 'are not fields'} of a ${lesson}; ${takes}.`;
}

/** Whether `text` holds a line break or another control character (a name is one line). */
export function hasControlCharacter(text: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u001f\u007f]/.test(text);
}

/** Stored provenance (§13.4), or null when `raw` is not one. */
export function decodeProvenance(raw: unknown): Provenance | null {
  if (!isPlainObject(raw)) return null;
  const { activation, taughtBy, at } = raw;
  if (
    typeof activation !== 'number' ||
    !Number.isInteger(activation) ||
    typeof taughtBy !== 'string' ||
    typeof at !== 'string'
  ) {
    return null;
  }
  return { activation, taughtBy, at };
}

/** A plain copy of the authority's stamp, so stored content never shares an object with it. */
export function copyProvenance(stamp: Provenance): Provenance {
  return { activation: stamp.activation, taughtBy: stamp.taughtBy, at: stamp.at };
}

/**
 * `Learnable.creation` for a learnable that parses its values: a value asks to create an entry when
 * `asks` says so of it parsed, in the way `how` tells the person. A value it refuses counts as asking,
 * so that it goes on to absorb and the person hears the learnable's own reason (§10.1), not a typo.
 */
export function declaredCreation<R extends object>(
  parse: (value: LessonValue) => R,
  asks: (parsed: Exclude<R, { readonly refused: string }>) => boolean,
  how: string,
): NonNullable<Learnable['creation']> {
  return {
    asks(value: LessonValue): boolean {
      const p = parse(value);
      return 'refused' in p || asks(p as Exclude<R, { readonly refused: string }>);
    },
    how,
  };
}
