// Invariant (issue 27): a server started on a data directory it cannot write stops with what is
// wrong and what to do, in the project's words (never SQLite's "unable to open database file"),
// and exits non-zero. As root the directory is a read-only file system (a tmpfs mounted ro, as
// the soak's disk faults do); as another user it is a directory without write permission.
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;
const root = typeof process.getuid === 'function' && process.getuid() === 0;
const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()!();
});

/** A directory this process cannot write, and the reason the server should give. */
function unwritableDir(): { dir: string; why: RegExp } {
  const base = mkdtempSync(join(tmpdir(), 'learnables-ro-'));
  const dir = join(base, 'data');
  mkdirSync(dir);
  cleanups.push(() => rmSync(base, { recursive: true, force: true }));
  if (root) {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=1m', 'tmpfs', dir]);
    cleanups.push(() => execFileSync('umount', [dir])); // runs before the rm: afterEach pops
    return { dir, why: /it is on a read-only file system/ };
  }
  chmodSync(dir, 0o555);
  cleanups.push(() => chmodSync(dir, 0o755));
  return { dir, why: /this user may not write there/ };
}

function start(dataDir: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/main.ts'],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' },
        timeout: 60_000,
      },
      (error, _stdout, stderr) =>
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stderr }),
    );
  });
}

describe('a data directory the server cannot write (issue 27)', () => {
  it('stops the start with what is wrong and what to do', async () => {
    const { dir, why } = unwritableDir();
    const { code, stderr } = await start(dir);
    expect(code).not.toBe(0);
    expect(stderr).toContain(`Cannot write the data directory ${dir}`);
    expect(stderr).toMatch(why);
    expect(stderr).toMatch(/set to a directory this user can write/);
    expect(stderr).not.toMatch(/unable to open database file/);
  }, 90_000);
});
