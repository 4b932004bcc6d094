/**
 * Customer names in a message and between customers: the known customers a text names
 * (a name inside a longer name the same part names is the longer one's), sibling companies whose
 * names nest ("Acme Trading" inside "Acme Trading & Contracting"), and whether a domain is named
 * like a customer.
 *
 * Owns: comparing names. Does not own: what is suggested from them (evidence.ts).
 */
import type { MailPart } from '../../mail/index.ts';
import { partText } from '../../mail/index.ts';
import { labelOf, MIN_EVIDENCE_CHARS, type SuggestInput } from '../suggest.ts';
import { namedEntries } from './label-index.ts';
import { withoutLegalForm } from './name-forms.ts';

/**
 * Another customer whose name contains `text` as whole words ("Acme Trading" inside
 * "Acme Trading & Contracting"), shown by its label; null when none. `entry` is the customer
 * `text` names, left out.
 */
export function siblingContaining(input: SuggestInput, entry: string | null, text: string): string | null {
  return otherLabel(input, entry, (label) => label.length > text.length && standsInside(text, label));
}

/** Another customer whose name stands inside `label` as whole words, shown by its label; null when none. */
export function siblingInside(input: SuggestInput, entry: string, label: string): string | null {
  return otherLabel(
    input,
    entry,
    (other) =>
      other.length >= MIN_EVIDENCE_CHARS && other.length < label.length && standsInside(other, label),
  );
}

/** The first label of an entry other than `entry` that `test` accepts. */
function otherLabel(
  input: SuggestInput,
  entry: string | null,
  test: (label: string) => boolean,
): string | null {
  for (const name of input.entries?.keys() ?? []) {
    if (name === entry) continue;
    const label = labelOf(input, name);
    if (test(label)) return label;
  }
  return null;
}

/** Whether `inner` stands in `outer` as whole words (case-insensitive). */
function standsInside(inner: string, outer: string): boolean {
  const at = outer.toLowerCase().indexOf(inner.toLowerCase());
  return at >= 0 && !isWordChar(outer.charAt(at - 1)) && !isWordChar(outer.charAt(at + inner.length));
}

function isWordChar(c: string): boolean {
  return c !== '' && /[\p{L}\p{N}]/u.test(c);
}

/**
 * Known entries whose label the subject or body names, as whole words (subject first); a name
 * found only inside a longer name the same part names ("Acme Trading" in "Acme Trading &
 * Contracting") is that longer name's, not its own.
 */
export function namedCustomers(input: SuggestInput): { entry: string; text: string; part: MailPart }[] {
  const { learnable, entries, message } = input;
  if (entries === undefined) return [];
  const out = new Map<string, { entry: string; text: string; part: MailPart }>();
  for (const part of ['subject', 'body'] as const) {
    const found = namedEntries(learnable, entries, partText(message, part));
    for (const n of found) {
      const inner = n.text.toLowerCase();
      const inside = found.some((o) => o.text.length > n.text.length && o.text.toLowerCase().includes(inner));
      if (!inside && !out.has(n.entry)) out.set(n.entry, { ...n, part });
    }
  }
  return [...out.values()];
}

/**
 * Whether a domain carries the customer's name ("northgatemotors.example" for "Northgate Motors Ltd",
 * "alhamra-trading.example" for "Al Hamra Trading"), or its initials with a word of it
 * ("ki-imports.example" for "Kowloon Imports Co Ltd"): the mark of a customer's own domain.
 */
export function domainNamedLike(domain: string, label: string): boolean {
  const compact = (t: string): string => t.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
  const name = compact(label);
  const firstWord = compact(label.split(/\s+/u)[0] ?? '');
  const labels = domain.toLowerCase().split('.').slice(0, -1).map(compact);
  return labels.some(
    (d) =>
      (d.length >= MIN_EVIDENCE_CHARS &&
        (name.startsWith(d) ||
          d.startsWith(name) ||
          (firstWord.length >= MIN_EVIDENCE_CHARS && d.includes(firstWord)))) ||
      initialsAndWord(d, label),
  );
}

/**
 * "kiimports" for "Kowloon Imports Co Ltd": the initials of two or more of the name's words (legal
 * form aside) followed by one of its later words whole, of at least MIN_EVIDENCE_CHARS.
 */
function initialsAndWord(d: string, label: string): boolean {
  const words = (withoutLegalForm(label) ?? label)
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
  if (words.length < 2) return false;
  const initials = words.map((w) => w.charAt(0)).join('');
  if (!d.startsWith(initials)) return false;
  const rest = d.slice(initials.length);
  return rest.length >= MIN_EVIDENCE_CHARS && words.slice(1).includes(rest);
}
