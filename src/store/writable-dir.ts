/**
 * A data directory the server cannot write to stops the start with what is wrong and
 * what to do, in the project's words, instead of SQLite's "unable to open database file".
 *
 * Owns: that check and its wording. The server needs to write (tasks, lessons, the corpus), so it
 * does not start read-only; what it would take is in docs/operations.md.
 */
import { accessSync, constants, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/** The data directory cannot be written: the message says which, why and what to do. */
export class DataDirNotWritable extends Error {
  override readonly name = 'DataDirNotWritable';
}

const WHY: Readonly<Record<string, string>> = {
  EROFS: 'it is on a read-only file system',
  EACCES: 'this user may not write there',
  EPERM: 'this user may not write there',
  ENOTDIR: 'part of its path is a file, not a directory',
  ENOSPC: 'the disk is full',
};

/** Makes `file`'s directory if it is missing, and fails in words when it cannot be written. */
export function ensureWritableDir(file: string): void {
  const dir = dirname(file);
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
  } catch (e) {
    throw notWritable(dir, e);
  }
}

/** The project's words for a failure to open or write the database at `file`, or null for another fault. */
export function openFailure(file: string, e: unknown): DataDirNotWritable | null {
  const text = e instanceof Error ? e.message : String(e);
  const code = (e as { code?: unknown }).code;
  if (
    typeof code === 'string' &&
    (code in WHY || /^SQLITE_(CANTOPEN|READONLY|IOERR)/.test(code) || /readonly|unable to open/i.test(text))
  ) {
    return notWritable(dirname(file), e);
  }
  return null;
}

function notWritable(dir: string, e: unknown): DataDirNotWritable {
  const code = (e as { code?: unknown }).code;
  const why =
    typeof code === 'string' && code in WHY
      ? WHY[code]
      : `the system said: ${e instanceof Error ? e.message : String(e)}`;
  const uid = typeof process.getuid === 'function' ? ` (uid ${process.getuid()})` : '';
  return new DataDirNotWritable(
    `Cannot write the data directory ${dir}: ${why}. The server keeps its database there (tasks, lessons, ` +
      `the mail it has read) and must write to it. Make ${dir} writable for this user${uid}, mount it ` +
      `read-write, or start with DATA_DIR set to a directory this user can write (or DATABASE_URL for PostgreSQL).`,
  );
}
