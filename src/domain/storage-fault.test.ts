// Invariant (issue 16): a write the disk refused (full, read-only), from SQLite, PostgreSQL or the system, anywhere on the cause chain, becomes a worded STORAGE_FULL / STORAGE_READ_ONLY; anything else is not a storage fault.
import { describe, expect, it } from 'vitest';
import { DomainError } from './errors.ts';
import { storageFault } from './storage-fault.ts';

const coded = (code: string, message = 'driver words'): Error => Object.assign(new Error(message), { code });

describe('storageFault', () => {
  it.each([['SQLITE_FULL'], ['53100'], ['ENOSPC']])('words %s as STORAGE_FULL, keeping the cause', (code) => {
    const cause = coded(code, 'database or disk is full');
    const e = storageFault(cause);
    expect(e?.code).toBe('STORAGE_FULL');
    expect(e?.message).toMatch(/disk is full.*nothing of it was kept.*Retry/);
    expect(e?.message).not.toContain('database or disk is full');
    expect(e?.cause).toBe(cause);
  });

  it.each([['SQLITE_READONLY'], ['SQLITE_READONLY_DBMOVED'], ['EROFS'], ['25006']])(
    'words %s as STORAGE_READ_ONLY',
    (code) => {
      expect(storageFault(coded(code))?.code).toBe('STORAGE_READ_ONLY');
    },
  );

  it('finds the code on the cause chain (a wrapped driver error)', () => {
    const wrapped = new Error('commit failed', { cause: coded('SQLITE_FULL') });
    expect(storageFault(wrapped)?.code).toBe('STORAGE_FULL');
  });

  it('refuses to call anything else a storage fault', () => {
    expect(storageFault(coded('SQLITE_CORRUPT'))).toBeNull();
    expect(storageFault(coded('SQLITE_ERROR', 'cannot rollback - no transaction is active'))).toBeNull();
    expect(storageFault(new Error('boom'))).toBeNull();
    expect(storageFault(new DomainError('LESSON_REFUSED', 'no'))).toBeNull();
    expect(storageFault('SQLITE_FULL')).toBeNull();
  });
});
