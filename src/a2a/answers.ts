/**
 * Understanding a person's answer to a question (the input-required turn). The answer names one
 * entry of the asked collection: a data part `{ "entry": "northgate" }` (or keyed by the
 * collection or its entry noun, `{ "<entry noun>": "northgate" }`), or text naming the entry or its
 * label, case-insensitively. Emitting a teach block never changes this (§8): the same answer is
 * understood the same way whether or not the client activated the extension.
 */
import type { Part } from '@a2a-js/sdk';
import { isPlainObject } from '../domain/json.ts';

export interface EntryChoice {
  readonly name: string;
  /** Human label ("Northgate Motors Ltd"); the name when the learnable has none. */
  readonly label: string;
}

export type AnswerResolution =
  | { readonly ok: true; readonly entry: string; readonly said: string }
  | { readonly ok: false; readonly said: string | null };

/**
 * Resolve the answer in `parts` against `choices`. `keys` are the data-part keys that may carry it
 * (e.g. ["entry", the collection, its entry noun]).
 */
export function resolveAnswer(
  parts: readonly Part[],
  choices: readonly EntryChoice[],
  keys: readonly string[],
): AnswerResolution {
  const said = answerText(parts, keys);
  if (said === null) return { ok: false, said: null };
  const needle = normalise(said);
  const hit =
    choices.find((c) => normalise(c.name) === needle) ?? choices.find((c) => normalise(c.label) === needle);
  return hit === undefined ? { ok: false, said } : { ok: true, entry: hit.name, said };
}

/** The list of valid answers, for the message that asks again. */
export function describeChoices(choices: readonly EntryChoice[], max = MAX_LISTED_CHOICES): string {
  const shown = choices
    .slice(0, max)
    .map((c) => (c.label === c.name ? `"${c.name}"` : `"${c.name}" (${c.label})`))
    .join(', ');
  return choices.length > max ? `${shown} and ${choices.length - max} more` : shown;
}

/** How many valid answers a re-asked question lists by name. */
const MAX_LISTED_CHOICES = 50;

function answerText(parts: readonly Part[], keys: readonly string[]): string | null {
  for (const p of parts) {
    const c = p.content;
    if (c?.$case === 'data' && isPlainObject(c.value)) {
      for (const k of keys) {
        const v = c.value[k];
        if (typeof v === 'string' && v.trim() !== '') return v;
      }
    }
  }
  for (const p of parts) {
    const c = p.content;
    if (c?.$case === 'text' && c.value.trim() !== '') return c.value;
  }
  return null;
}

function normalise(s: string): string {
  return s
    .trim()
    .replace(/^["'“”‘’]+|["'“”‘’.!]+$/g, '')
    .replace(/\s+/g, ' ')
    .toLowerCase();
}
