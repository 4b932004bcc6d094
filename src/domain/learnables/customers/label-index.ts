/**
 * Finding the entries a text names by their label ("Al Hamra Trading" in a body), for suggestions
 * (suggest.ts): built once per definition version's collection (cached by the frozen entries map)
 * so a question costs a scan of the message, not a pass over every entry. ASCII labels go into one
 * Aho-Corasick automaton; labels in other scripts (few) are searched directly. A hit counts only
 * where the label stands as whole words.
 */
import RE2 from 're2';
import type { EntryContent, Learnable } from '../learnable.ts';
import { buildAhoCorasick, type AhoCorasick } from '../../matching/index.ts';
import { tokenPattern } from '../literal-pattern.ts';

/**
 * Cells of full transition rows the label automaton keeps (4 bytes each): the root and the first
 * levels below it, where a scan spends most steps; deeper nodes walk their children. With the
 * automaton's default (2M cells) a tenant's 1,000 labels kept ~1.1 MB of rows alive as long as its
 * definition, outside the matcher budget (issue 29: 1,000 tenants held 4.9 GB); this keeps 128 KB.
 */
const LABEL_ROW_CELLS = 32 * 1024;

/** Shortest label looked for, in characters. */
export const MIN_LABEL_CHARS = 4;

export interface NamedEntry {
  readonly entry: string;
  /** The text as written in the message. */
  readonly text: string;
}

interface Index {
  readonly ascii: AhoCorasick | null;
  readonly asciiLabels: readonly { entry: string; label: string }[];
  readonly other: readonly { entry: string; label: string; lower: string }[];
}

const cache = new WeakMap<ReadonlyMap<string, EntryContent>, Index>();

function build(learnable: Learnable, entries: ReadonlyMap<string, EntryContent>): Index {
  const asciiLabels: { entry: string; label: string }[] = [];
  const other: { entry: string; label: string; lower: string }[] = [];
  if (learnable.label !== undefined) {
    for (const [entry, content] of entries) {
      const label = learnable.label(entry, content).trim();
      if (label.length < MIN_LABEL_CHARS) continue;
      // eslint-disable-next-line no-control-regex -- ASCII is exactly the test
      if (/^[\x00-\x7f]*$/.test(label)) asciiLabels.push({ entry, label });
      else other.push({ entry, label, lower: label.toLowerCase() });
    }
  }
  const ascii =
    asciiLabels.length === 0
      ? null
      : buildAhoCorasick(
          asciiLabels.map((l) => l.label.toLowerCase()),
          { maxRowCells: LABEL_ROW_CELLS },
        );
  return { ascii, asciiLabels, other };
}

/** The entries whose label `text` names as whole words, each once, in entry order of discovery. */
export function namedEntries(
  learnable: Learnable,
  entries: ReadonlyMap<string, EntryContent>,
  text: string,
): NamedEntry[] {
  let index = cache.get(entries);
  if (index === undefined) {
    index = build(learnable, entries);
    cache.set(entries, index);
  }
  const found = new Map<string, NamedEntry>();
  const consider = (entry: string, label: string, start: number): void => {
    if (found.has(entry)) return;
    const written = text.slice(start, start + label.length);
    if (
      new RE2(tokenPattern(label, 'words'), 'iu').test(
        text.slice(Math.max(0, start - 1), start + label.length + 1),
      )
    ) {
      found.set(entry, { entry, text: written });
    }
  };
  if (index.ascii !== null) {
    const { asciiLabels } = index;
    index.ascii.scan(text, (key, end) => {
      const l = asciiLabels[key]!;
      consider(l.entry, l.label, end - l.label.length + 1);
    });
  }
  if (index.other.length > 0) {
    const lower = text.toLowerCase();
    for (const l of index.other) {
      const at = lower.indexOf(l.lower);
      if (at >= 0) consider(l.entry, l.label, at);
    }
  }
  return [...found.values()];
}
