/**
 * Filing mail where it came from: the folder a triaged message goes to in its own
 * mailbox, from the mailbox's `fileBy` template (`Customers/{customer}`, `Kinds/{kind}`) and what
 * the task decided, each placeholder the label of a reading's entry (the reader's `shownAs` names
 * it). A label is made safe for a folder name: the hierarchy separator, IMAP wildcards (`*`, `%`)
 * and control characters become `-`, surrounding dots and spaces go, and it is cut to 100
 * characters; a placeholder with no decided label (a reading that decides no single entry) files
 * under `Unsorted`.
 */
import type { TaskFiling } from '../../domain/mail/index.ts';

export interface FilingConfig {
  /** MAILBOXES[].fileBy. */
  readonly template: string;
  /** MAILBOXES[].questionsFolder: where a message that asks waits for its answer. */
  readonly questionsFolder: string;
  /** MAILBOXES[].fileAs: move into folders (default), or mark with IMAP keywords or Gmail labels (filer.ts). */
  readonly mode: 'folders' | 'keywords' | 'labels';
}

const MAX_LABEL = 100;
const UNSORTED = 'Unsorted';

/** The folder for a task in this state, or null while it is neither asking nor decided. */
export function folderFor(config: FilingConfig, filing: TaskFiling, delimiter: string): string | null {
  if (filing.state === 'input-required') return config.questionsFolder;
  if (filing.state !== 'completed') return null;
  const path = config.template.replace(/\{([a-z][a-z0-9_-]*)\}/g, (_m, key: string) =>
    safeFolderName(filing.filedAs.get(key) ?? UNSORTED, delimiter),
  );
  // The template's own "/" is the hierarchy: written in the server's separator.
  return delimiter === '/' ? path : path.split('/').join(delimiter);
}

/** One level of a folder path from a label: never a separator, wildcard or control character. */
export function safeFolderName(label: string, delimiter: string): string {
  let out = '';
  for (const ch of label.normalize('NFC')) {
    const code = ch.codePointAt(0) ?? 0;
    out +=
      ch === delimiter || ch === '/' || ch === '*' || ch === '%' || code < 0x20 || code === 0x7f ? '-' : ch;
  }
  const trimmed = [...out.replace(/^[\s.]+|[\s.]+$/g, '')].slice(0, MAX_LABEL).join('').trim();
  return trimmed === '' ? UNSORTED : trimmed;
}

/**
 * An IMAP keyword for a place (`Customers/Kessler Feinkost GmbH` → `$Customers/Kessler_Feinkost_GmbH`):
 * a keyword is an ASCII atom (RFC 3501 §9), so accents are dropped, and a space, an atom-special
 * (`(){%*"\]`) or any other character becomes `_`. Two labels that differ only there share a keyword.
 */
export function keywordFor(place: string): string {
  const ascii = place.normalize('NFKD').replace(/\p{M}/gu, '');
  let out = '$';
  for (const ch of ascii) {
    const code = ch.codePointAt(0) ?? 0;
    out += code <= 0x20 || code >= 0x7f || '(){%*"\\]'.includes(ch) ? '_' : ch;
  }
  return out.slice(0, 200);
}
