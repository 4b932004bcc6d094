/**
 * No entry by accident (issue 12.3): whether a lesson for an entry nobody has may create it, and
 * the refusal when it may not, naming the nearest existing entries by name and label.
 *
 * Owns: the rule and the sentence, shared by absorbing a lesson and by its dry run, so both answer
 * a typo alike. Does not own: reading the value (the learnable's `creation.asks` does, §9) or the
 * distance (nearest-entries.ts).
 */
import { DomainError } from '../errors.ts';
import type { EntryContent, Learnable, LessonValue } from '../learnables/index.ts';
import { nearestEntries } from './nearest-entries.ts';

/** How many entry names an ENTRY_UNKNOWN message lists. */
const LISTED_ENTRIES = 20;

/** True when `value` may create a new entry in `learnable`'s collection, as the learnable declares. */
export function createsEntryHere(learnable: Learnable, value: LessonValue): boolean {
  return learnable.createsEntries && (learnable.creation?.asks(value) ?? true);
}

/** The ENTRY_UNKNOWN refusal for `entry`, given the collection's entries in the version read. */
export function entryUnknown(
  l: Learnable,
  entry: string,
  entries: ReadonlyMap<string, EntryContent> = new Map(),
): DomainError {
  const names = [...entries.keys()];
  const near = nearestEntries(
    entry,
    [...entries].map(([name, content]) => ({ entry: name, label: l.label?.(name, content) ?? name })),
  );
  const create = l.createsEntries && l.creation !== undefined ? ` Or ${l.creation.how}.` : '';
  let message: string;
  if (near.length > 0) {
    const said = near.map((n) => (n.label === n.entry ? `"${n.entry}"` : `"${n.entry}" (${n.label})`));
    message = `There is no ${l.entryNoun} "${entry}" in ${l.collection}; did you mean ${listOr(said)}?${create}`;
  } else if (names.length === 0) {
    message = `There is no ${l.entryNoun} "${entry}" in ${l.collection}, and ${l.collection} has no entries yet${create === '' ? '; lessons here cannot create one.' : `.${create}`}`;
  } else {
    const listed = names.slice(0, LISTED_ENTRIES).map((n) => `"${n}"`);
    const more = names.length > LISTED_ENTRIES ? ` and ${names.length - LISTED_ENTRIES} more` : '';
    message = `There is no ${l.entryNoun} "${entry}" in ${l.collection}: teach one of ${listed.join(', ')}${more}.${create}`;
  }
  return new DomainError('ENTRY_UNKNOWN', message, {
    details: { collection: l.collection, entry, suggestions: near, valid: names.slice(0, 200) },
  });
}

/** "a", "a or b", "a, b or c" */
function listOr(words: readonly string[]): string {
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)!}`;
}
