/**
 * The mappings reader (§11): for each CSV attachment, the fields found through `mappings`, under the
 * rule its `how` states: each field carries the column headings it has been seen under; headings
 * match case-insensitively ignoring surrounding spaces; the first hit wins (in the order the field
 * learned them); no heading matches, the field comes back empty, unsettled, naming the headings seen.
 *
 * The headings of a field come from its learnable (`headings()`), never from reading its content.
 * Shown as `manifests`, one reading per CSV attachment; it decides no single entry and never asks.
 */
import type { EntryContent, Learnable } from '../learnable.ts';
import type { MailAttachment, MailMessage } from '../../mail/index.ts';
import { listAnd } from '../read-marked.ts';
import type { Reader } from '../learnable.ts';

export interface ManifestFieldReading {
  readonly field: string;
  readonly settled: boolean;
  /** The heading it was found under, when settled. */
  readonly column?: string;
  readonly reads: string;
  /** Values of that column in the manifest's rows (first 50), when settled. */
  readonly values?: readonly string[];
}

export interface ManifestReading {
  readonly collection: string;
  readonly settled: boolean;
  readonly reads: string;
  readonly attachment: string;
  readonly headingsSeen: readonly string[];
  readonly fields: readonly ManifestFieldReading[];
}

/** Most values of a column kept in a reading. */
const MAX_COLUMN_VALUES = 50;

/** The key two headings are compared by: case-insensitive, surrounding spaces ignored (the rule `how` states). */
export function headingKey(heading: string): string {
  return heading.trim().toLowerCase();
}

function quoted(headings: readonly string[]): string {
  return headings.length === 0 ? 'no headings' : listAnd(headings.map((h) => `'${h.trim()}'`));
}

export function mappingsReader(learnable: Learnable): Reader {
  return {
    shownAs: 'manifests',
    reads: [],
    read(input) {
      const manifests = readManifests({ learnable, entries: input.entries, message: input.message });
      return {
        collection: learnable.collection,
        shownAs: 'manifests',
        settled: manifests.every((m) => m.settled),
        winner: undefined,
        settledCount: manifests.reduce((n, m) => n + m.fields.filter((f) => f.settled).length, 0),
        decision: manifests,
        likely: [],
        report: manifests,
        line: null,
      };
    },
  };
}

/** One reading per CSV manifest attached to the message. */
function readManifests(input: {
  readonly learnable: Learnable;
  readonly entries: ReadonlyMap<string, EntryContent> | undefined;
  readonly message: MailMessage;
}): ManifestReading[] {
  const { learnable, entries, message } = input;
  const collection = learnable.collection;
  const out: ManifestReading[] = [];
  for (const attachment of message.attachments) {
    if (attachment.table === null) continue;
    out.push(readOne(collection, learnable, entries, attachment));
  }
  return out;
}

function readOne(
  collection: string,
  learnable: Learnable,
  entries: ReadonlyMap<string, EntryContent> | undefined,
  attachment: MailAttachment,
): ManifestReading {
  const table = attachment.table!;
  const seen = table.headings;
  const index = new Map<string, number>();
  seen.forEach((h, i) => {
    const k = headingKey(h);
    if (!index.has(k)) index.set(k, i);
  });

  const fields: ManifestFieldReading[] = [];
  for (const [field, content] of entries ?? []) {
    const known = learnable.headings?.(field, content) ?? [];
    let column: number | undefined;
    for (const h of known) {
      column = index.get(headingKey(h));
      if (column !== undefined) break; // the first hit wins
    }
    if (column === undefined) {
      fields.push({
        field,
        settled: false,
        reads: `No known heading for ${field}; the manifest has ${quoted(seen)}.`,
      });
      continue;
    }
    const heading = seen[column]!;
    fields.push({
      field,
      settled: true,
      column: heading,
      reads: `${field} is in the '${heading.trim()}' column`,
      values: table.rows.slice(0, MAX_COLUMN_VALUES).map((r) => r[column] ?? ''),
    });
  }

  const found = fields.filter((f) => f.settled);
  const missing = fields.filter((f) => !f.settled);
  let reads: string;
  if (fields.length === 0)
    reads = `No manifest fields are known yet; ${attachment.filename} has ${quoted(seen)}.`;
  else if (missing.length === 0)
    reads = `Read ${listAnd(found.map((f) => f.field))} from ${attachment.filename}.`;
  else
    reads =
      `Found ${found.length} of ${fields.length} fields in ${attachment.filename}; ` +
      `no known heading for ${listAnd(missing.map((f) => f.field))} (it has ${quoted(seen)}).`;
  return {
    collection,
    settled: fields.length > 0 && missing.length === 0,
    reads,
    attachment: attachment.filename,
    headingsSeen: seen,
    fields,
  };
}
