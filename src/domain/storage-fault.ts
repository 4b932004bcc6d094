/**
 * Storage faults in words: a write the disk refused (full, read-only) becomes a
 * DomainError the transports can send as it stands (STORAGE_FULL, STORAGE_READ_ONLY), instead of an
 * internal error or the driver's own sentence. Recognised structurally by the drivers' documented
 * codes (SQLite's `SQLITE_FULL`, `SQLITE_READONLY…`; PostgreSQL's SQLSTATE 53100 disk_full, 25006
 * read_only_sql_transaction; Node's ENOSPC/EROFS), anywhere on the `cause` chain, so no driver is
 * imported here and the domain stays I/O-free.
 *
 * Deliberately does not: retry, or decide that anything was (or was not) written: every store
 * writes in one transaction, so a refused write left nothing behind (soak/faults.ts checks it).
 */
import { DomainError } from './errors.ts';

const FULL = new Set(['SQLITE_FULL', '53100', 'ENOSPC']);
const READ_ONLY = /^(SQLITE_READONLY|EROFS$|25006$)/;

/** The driver's or the system's error code of `e` or of any error in its cause chain (at most 8 deep). */
function codes(e: unknown): string[] {
  const out: string[] = [];
  let at: unknown = e;
  for (let depth = 0; depth < 8 && typeof at === 'object' && at !== null; depth++) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === 'string') out.push(code);
    at = (at as { cause?: unknown }).cause;
  }
  return out;
}

/** STORAGE_FULL / STORAGE_READ_ONLY for a write the disk refused, else null (not a storage fault). */
export function storageFault(e: unknown): DomainError | null {
  if (e instanceof DomainError) return null;
  const found = codes(e);
  if (found.some((c) => FULL.has(c))) {
    return new DomainError(
      'STORAGE_FULL',
      "This server's disk is full, so it could not store this request; nothing of it was kept. Reading stored tasks and definitions still works. Retry once the operator has freed space where the server keeps its data (DATA_DIR or DATABASE_URL).",
      { cause: e },
    );
  }
  if (found.some((c) => READ_ONLY.test(c))) {
    return new DomainError(
      'STORAGE_READ_ONLY',
      "This server's storage is read-only at the moment, so it could not store this request; nothing of it was kept. Reading stored tasks and definitions still works. Retry once the operator has made the data directory (DATA_DIR) or database writable again.",
      { cause: e },
    );
  }
  return null;
}
