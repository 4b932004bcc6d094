/**
 * Customer names in a message and between customers (issue 14): the known customers a text names
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

/**
 * Another customer whose name contains `text` as whole words (issue 14: "Acme Trading" inside
 * "Acme Trading & Contracting"), shown by its label; null when none. `entry` is the customer
 * `text` names, left out.
 */
export function siblingContaining(input: SuggestInput, entry: string | null, text: string): string | null {
  const { entries } = input;
  if (entries === undefined) return null;
  const wanted = text.toLowerCase();
  for (const name of entries.keys()) {
    if (name === entry) continue;
    const label = labelOf(input, name);
    if (label.length <= text.length) continue;
    const at = label.toLowerCase().indexOf(wanted);
    if (at >= 0 && !isWordChar(label.charAt(at - 1)) && !isWordChar(label.charAt(at + text.length)))
      return label;
  }
  return null;
}

/** Another customer whose name stands inside `label` as whole words, shown by its label; null when none. */
export function siblingInside(input: SuggestInput, entry: string, label: string): string | null {
  const { entries } = input;
  if (entries === undefined) return null;
  const lower = label.toLowerCase();
  for (const name of entries.keys()) {
    if (name === entry) continue;
    const other = labelOf(input, name);
    if (other.length < MIN_EVIDENCE_CHARS || other.length >= label.length) continue;
    const at = lower.indexOf(other.toLowerCase());
    if (at >= 0 && !isWordChar(label.charAt(at - 1)) && !isWordChar(label.charAt(at + other.length)))
      return other;
  }
  return null;
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
 * "alhamra-trading.example" for "Al Hamra Trading"): the mark of a customer's own mail domain.
 */
export function domainNamedLike(domain: string, label: string): boolean {
  const compact = (t: string): string => t.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
  const name = compact(label);
  const firstWord = compact(label.split(/\s+/u)[0] ?? '');
  const labels = domain.toLowerCase().split('.').slice(0, -1).map(compact);
  return labels.some(
    (d) =>
      d.length >= MIN_EVIDENCE_CHARS &&
      (name.startsWith(d) ||
        d.startsWith(name) ||
        (firstWord.length >= MIN_EVIDENCE_CHARS && d.includes(firstWord))),
  );
}
