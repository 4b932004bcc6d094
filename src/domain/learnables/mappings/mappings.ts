/**
 * The `mappings` learnable (the post's ColumnMapping): which column of a manifest holds which
 * field. Each field (waybill, consignee, pieces, weight, …) carries the column headings it has
 * been seen under. Its lesson value is `{ column, newField }`: no `pattern`, no `where`, which is
 * the point (§9): it goes through the identical code path as customers.
 *
 * Owns: judging a heading, the declared way a lesson asks to start a new field (issue 12.3: the
 * `newField` choice, so a typo'd field is refused with the nearest names instead of created),
 * `describes` ("reads waybill from the 'Air Waybill No' column", §10.4), revert and erase of
 * headings. Does not match text, so it hands the matcher no marks; its reader (reader.ts) reads a
 * manifest with these headings and follows `how`.
 */
import { canonicalJson, isPlainObject } from '../../json.ts';
import type {
  Absorption,
  EntryContent,
  Learnable,
  LearnableDescriptor,
  LearnedRule,
  LessonValue,
  MarkSource,
  Provenance,
  Removal,
} from '../learnable.ts';
import {
  copyProvenance,
  declaredCreation,
  decodeProvenance,
  describeType,
  hasControlCharacter,
  unknownKeysRefusal,
} from '../value-shape.ts';
import { headingKey, mappingsReader } from './reader.ts';

/** Longest column heading accepted, in characters. */
const MAX_HEADING_CHARS = 100;

const COLUMN_KEY = 'column';
/** The lesson field by which a lesson asks to start a field the mappings do not have yet (issue 12.3). */
const NEW_FIELD_KEY = 'newField';
const NEW_FIELD_LABEL = 'A new field?';
const NEW_FIELD_CHOICES = ['no', 'yes'] as const;

export const MAPPINGS_HOW =
  'Each field carries the column headings it has been seen under. Headings match case-insensitively, ' +
  'ignoring surrounding spaces, and the first hit wins. No heading matches, the field comes back empty.';

function mappingsDescriptor(): LearnableDescriptor {
  return {
    collection: 'mappings',
    entry: 'field',
    skills: ['triage_inbound', 'recheck_message'],
    teaches: 'which column of a manifest holds which field',
    how: MAPPINGS_HOW,
    decidedBy: 'rules',
    lessonFields: [
      {
        name: COLUMN_KEY,
        label: 'Column heading',
        kind: 'text',
        help: "Exactly as it appears in the sheet's header row.",
      },
      {
        name: NEW_FIELD_KEY,
        label: NEW_FIELD_LABEL,
        kind: 'choice',
        choices: [...NEW_FIELD_CHOICES],
        default: 'no',
        help: "Choose 'yes' only to start a field the manifests have not had; teaching a field you already have needs no.",
      },
    ],
  };
}

interface Heading {
  readonly heading: string;
  readonly added: Provenance;
}

interface ParsedValue {
  readonly column: string;
  /** Whether the lesson asks to start a new field (issue 12.3). */
  readonly newField: boolean;
}

const NEEDS_COLUMN =
  "A field mapping needs a column: type the heading exactly as it appears in the sheet's header row.";

/** §10.1: judge a value; the reason is for the person who typed it. */
function parse(value: LessonValue): ParsedValue | { refused: string } {
  if (!isPlainObject(value)) return { refused: 'A field mapping lesson must be an object with a column.' };
  const unknown = unknownKeysRefusal(
    value,
    [COLUMN_KEY, NEW_FIELD_KEY],
    'field mapping lesson',
    `it takes the column heading ("${COLUMN_KEY}") and, for a new field, "${NEW_FIELD_KEY}"`,
  );
  if (unknown !== null) return { refused: unknown };
  const newField = parseNewField(value[NEW_FIELD_KEY]);
  if (typeof newField === 'string') return { refused: newField };
  const raw = value[COLUMN_KEY];
  if (typeof raw !== 'string') {
    return {
      refused:
        raw === undefined || raw === null
          ? NEEDS_COLUMN
          : `The column heading must be text, not ${describeType(raw)}.`,
    };
  }
  const column = raw.trim();
  if (column === '') return { refused: NEEDS_COLUMN };
  if (column.length > MAX_HEADING_CHARS) {
    return {
      refused: `"${column.slice(0, 40)}…" is ${column.length} characters long; a column heading can be at most ${MAX_HEADING_CHARS}.`,
    };
  }
  if (hasControlCharacter(column)) {
    return {
      refused: `"${column}" contains a line break or control character; a column heading is one line of the header row.`,
    };
  }
  return { column, newField };
}

/** The `newField` answer: absent, empty or 'no' is false, 'yes' true; anything else is refused in words. */
function parseNewField(raw: unknown): boolean | string {
  if (raw === undefined || raw === null) return false;
  const answer = typeof raw === 'string' ? raw.trim().toLowerCase() : undefined;
  if (answer === '' || answer === 'no') return false;
  if (answer === 'yes') return true;
  const said = typeof raw === 'string' ? `"${raw}"` : describeType(raw);
  return `${said} is not an answer to "${NEW_FIELD_LABEL}" ("${NEW_FIELD_KEY}"); choose yes or no.`;
}

function phrase(field: string, column: string): string {
  return `reads ${field} from the '${column}' column`;
}

function decode(entryName: string, content: unknown): Heading[] | string {
  if (!isPlainObject(content)) return `field "${entryName}" must be an object`;
  const extra = Object.keys(content).filter((k) => k !== 'columns');
  if (extra.length > 0) return `field "${entryName}" has unknown keys ${extra.join(', ')}`;
  const columns = content.columns;
  if (!Array.isArray(columns)) return `field "${entryName}".columns must be a list`;
  const out: Heading[] = [];
  for (const [i, c] of (columns as unknown[]).entries()) {
    if (!isPlainObject(c) || typeof c.heading !== 'string')
      return `field "${entryName}".columns[${i}] needs a heading`;
    const p = parse({ [COLUMN_KEY]: c.heading });
    if ('refused' in p || p.column !== c.heading)
      return `field "${entryName}".columns[${i}]: heading is not a usable, trimmed heading`;
    const added = decodeProvenance(c.added);
    if (added === null) return `field "${entryName}".columns[${i}] has no valid provenance`;
    out.push({ heading: c.heading, added });
  }
  return out;
}

function mustDecode(entryName: string, content: EntryContent): Heading[] {
  const h = decode(entryName, content);
  if (typeof h === 'string') throw new TypeError(`mappings: stored entry is malformed: ${h}`);
  return h;
}

function encode(headings: readonly Heading[]): EntryContent {
  return { columns: headings.map((h) => ({ heading: h.heading, added: { ...h.added } })) };
}

export function createMappingsLearnable(): Learnable & {
  label(entryName: string, content: EntryContent): string;
  headings(entryName: string, content: EntryContent): readonly string[];
} {
  const learnable = {
    collection: 'mappings',
    entryNoun: 'field',
    createsEntries: true,

    // Issue 12.3: a taught lesson starts a new field only when it says so (the declared newField choice).
    creation: declaredCreation(
      parse,
      (p) => p.newField,
      `choose "yes" for "${NEW_FIELD_LABEL}" to start a new field`,
    ),

    descriptor: () => mappingsDescriptor(),

    absorb(
      entryName: string,
      content: EntryContent | undefined,
      value: LessonValue,
      stamp: Provenance,
    ): Absorption {
      const p = parse(value);
      if ('refused' in p) return { outcome: 'refused', reason: p.refused };
      const describes = phrase(entryName, p.column);
      const headings = content === undefined ? [] : mustDecode(entryName, content);
      // §10.2: a heading the field already carries adds nothing.
      if (headings.some((h) => headingKey(h.heading) === headingKey(p.column)))
        return { outcome: 'unchanged', describes };
      const added = copyProvenance(stamp);
      return { outcome: 'learned', content: encode([...headings, { heading: p.column, added }]), describes };
    },

    describe(value: LessonValue, entryName?: string): string {
      const p = parse(value);
      if ('refused' in p) return `nothing usable (${p.refused})`;
      return phrase(entryName ?? 'this field', p.column);
    },

    revert(entryName: string, content: EntryContent, value: LessonValue, activation: number): Removal {
      const p = parse(value);
      if ('refused' in p) return { outcome: 'unchanged' };
      const headings = mustDecode(entryName, content);
      const kept = headings.filter(
        (h) => !(h.added.activation === activation && headingKey(h.heading) === headingKey(p.column)),
      );
      if (kept.length === headings.length) return { outcome: 'unchanged' };
      return { outcome: 'changed', content: kept.length === 0 ? null : encode(kept) };
    },

    mentions(content: EntryContent, identifier: string): boolean {
      const needle = identifier.trim().toLowerCase();
      return (
        needle !== '' && mustDecode('field', content).some((h) => h.heading.toLowerCase().includes(needle))
      );
    },

    erase(content: EntryContent, identifier: string): Removal {
      const needle = identifier.trim().toLowerCase();
      if (needle === '') return { outcome: 'unchanged' };
      const headings = mustDecode('field', content);
      const kept = headings.filter((h) => !h.heading.toLowerCase().includes(needle));
      if (kept.length === headings.length) return { outcome: 'unchanged' };
      return { outcome: 'changed', content: kept.length === 0 ? null : encode(kept) };
    },

    rules(entryName: string, content: EntryContent): readonly LearnedRule[] {
      return mustDecode(entryName, content).map((h) => ({
        describes: phrase(entryName, h.heading),
        provenance: h.added,
      }));
    },

    marks(): readonly MarkSource[] {
      return [];
    },

    label(entryName: string): string {
      return entryName;
    },

    headings(entryName: string, content: EntryContent): readonly string[] {
      return mustDecode(entryName, content).map((h) => h.heading);
    },

    validateContent(
      entryName: string,
      content: unknown,
    ): { ok: true; content: EntryContent } | { ok: false; reason: string } {
      const h = decode(entryName, content);
      if (typeof h === 'string') return { ok: false, reason: h };
      const encoded = encode(h);
      // Plain JSON by construction; prove it before anyone hashes it.
      canonicalJson(encoded);
      return { ok: true, content: encoded };
    },
  };
  return { ...learnable, reader: mappingsReader(learnable) };
}
