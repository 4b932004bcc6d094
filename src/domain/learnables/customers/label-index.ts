/**
 * Finding the entries a text names by their label ("Al Hamra Trading" in a body), for suggestions
 * (suggest.ts) and objections: built once per definition version's collection (cached by the frozen
 * entries map) so a question costs a scan of the message, not a pass over every entry. Each label
 * is looked for in every form people write it (name-forms.ts): in full, and without its
 * legal form ("Maquinaria Monterrey" for "Maquinaria Monterrey SA"), `&`/`and` and spacing varied. A
 * form two entries share (near-duplicate names) names only the entry whose full label it is, or
 * neither. ASCII forms go into one Aho-Corasick automaton; forms in other scripts (few) are
 * searched directly. A hit counts only where the form stands as whole words.
 */
import RE2 from 're2';
import type { EntryContent, Learnable } from '../learnable.ts';
import { buildAhoCorasick, type AhoCorasick } from '../../matching/index.ts';
import { tokenPattern } from '../literal-pattern.ts';
import { nameForms } from './name-forms.ts';

/**
 * Cells of full transition rows the label automaton keeps (4 bytes each): the root and the first
 * levels below it, where a scan spends most steps; deeper nodes walk their children. With the
 * automaton's default (2M cells) a tenant's 1,000 labels kept ~1.1 MB of rows alive as long as its
 * definition, outside the matcher budget (1,000 tenants held 4.9 GB); this keeps 128 KB.
 */
const LABEL_ROW_CELLS = 32 * 1024;

/** Shortest label looked for, in characters. */
export const MIN_LABEL_CHARS = 4;

export interface NamedEntry {
  readonly entry: string;
  /** The text as written in the message. */
  readonly text: string;
  /** False when the text is the name without its legal form: weaker evidence than the full name. */
  readonly full: boolean;
}

interface Form {
  readonly entry: string;
  /** The form, single-spaced. */
  readonly label: string;
  readonly full: boolean;
}

interface Index {
  readonly ascii: AhoCorasick | null;
  readonly asciiLabels: readonly Form[];
  readonly other: readonly (Form & { readonly lower: string })[];
}

/** Every entry's forms, leaving out a form two entries share unless it is one's full label. */
function formsOf(learnable: Learnable, entries: ReadonlyMap<string, EntryContent>): Form[] {
  const byText = new Map<string, Form[]>();
  if (learnable.label === undefined) return [];
  for (const [entry, content] of entries) {
    for (const form of nameForms(learnable.label(entry, content))) {
      if (form.text.length < MIN_LABEL_CHARS) continue;
      const key = form.text.toLowerCase();
      byText.set(key, [...(byText.get(key) ?? []), { entry, label: form.text, full: form.full }]);
    }
  }
  const out: Form[] = [];
  for (const forms of byText.values()) {
    const owners = new Set(forms.map((f) => f.entry));
    if (owners.size === 1) out.push(forms[0]!);
    else {
      const full = forms.filter((f) => f.full);
      if (new Set(full.map((f) => f.entry)).size === 1) out.push(full[0]!);
    }
  }
  return out;
}

const cache = new WeakMap<ReadonlyMap<string, EntryContent>, Index>();

function build(learnable: Learnable, entries: ReadonlyMap<string, EntryContent>): Index {
  const asciiLabels: Form[] = [];
  const other: (Form & { lower: string })[] = [];
  for (const form of formsOf(learnable, entries)) {
    // eslint-disable-next-line no-control-regex -- ASCII is exactly the test
    if (/^[\x00-\x7f]*$/.test(form.label)) asciiLabels.push(form);
    else other.push({ ...form, lower: form.label.toLowerCase() });
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

/**
 * The entries whose name `text` gives as whole words (in full, or without its legal form), each
 * once, in order of discovery; an entry named both ways is named in full.
 */
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
  const { spaced, at } = singleSpaced(text);
  const found = new Map<string, NamedEntry>();
  const consider = (form: Form, start: number): void => {
    const had = found.get(form.entry);
    if (had !== undefined && (had.full || !form.full)) return;
    const end = start + form.label.length;
    if (
      new RE2(tokenPattern(form.label, 'words'), 'iu').test(spaced.slice(Math.max(0, start - 1), end + 1))
    ) {
      found.set(form.entry, {
        entry: form.entry,
        text: text.slice(at(start), at(end - 1) + 1),
        full: form.full,
      });
    }
  };
  if (index.ascii !== null) {
    const { asciiLabels } = index;
    index.ascii.scan(spaced, (key, end) => {
      const l = asciiLabels[key]!;
      consider(l, end - l.label.length + 1);
    });
  }
  if (index.other.length > 0) {
    const lower = spaced.toLowerCase();
    for (const l of index.other) {
      const i = lower.indexOf(l.lower);
      if (i >= 0) consider(l, i);
    }
  }
  return [...found.values()];
}

/**
 * The text with each run of white space as one space, and where each of its characters came from
 * (worked out only when a name is found: most texts name nobody).
 */
function singleSpaced(text: string): { spaced: string; at: (i: number) => number } {
  const spaced = text.replace(/\s+/gu, ' ');
  if (spaced.length === text.length) return { spaced, at: (i) => i };
  let from: number[] | undefined;
  const origins = (): number[] => {
    const out: number[] = [];
    for (const m of text.matchAll(/\s+|\S+/gu)) {
      if (/^\s/u.test(m[0])) out.push(m.index);
      else for (let k = 0; k < m[0].length; k++) out.push(m.index + k);
    }
    return out;
  };
  return { spaced, at: (i) => (from ??= origins())[i] ?? text.length - 1 };
}
