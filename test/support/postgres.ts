/**
 * A real PostgreSQL for the tests (../shared/notes/postgres-for-tests.md): one throwaway cluster per
 * vitest run, started by the globalSetup below in a temporary directory on a free loopback port with
 * Debian's `initdb`/`pg_ctl` (as the `postgres` user when the tests run as root: initdb refuses
 * root), or the server `DATABASE_URL` already names. Each test file (or test) takes a database of
 * its own with `createTestDatabase()`, dropped by its `drop()`.
 *
 * Deliberately not: a mock, pg-mem or PGlite standing in for the server users run.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The cluster's URL (its `postgres` database), or '' when none could be started. */
    postgresUrl: string;
    /** Why there is no cluster ('' when there is one). */
    postgresProblem: string;
  }
}

/** Where Debian puts the server binaries (not on PATH): the newest installed major version. */
export function postgresBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length === 0 ? null : join(root, versions[0]!, 'bin');
}

async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}

export interface Cluster {
  /** A URL of the cluster's maintenance database; test databases are made from it. */
  readonly url: string;
  stop(): Promise<void>;
}

/** `DATABASE_URL` when it names a PostgreSQL server; otherwise a new throwaway cluster. */
export async function startCluster(): Promise<Cluster> {
  const given = process.env.DATABASE_URL;
  if (given !== undefined && /^postgres(ql)?:\/\//.test(given)) return { url: given, stop: async () => {} };
  const bin = postgresBinDir();
  if (bin === null) {
    throw new Error(
      'The PostgreSQL tests need a real server: install it (sudo apt-get install postgresql; `npm test` does ' +
        'it as root, scripts/ensure-postgres.sh) or set DATABASE_URL=postgres://user@host:port/db.',
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'lt-pg-'));
  chmodSync(dir, 0o777); // the postgres user writes its data directory and socket here
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]): void => {
    const file = join(bin, cmd);
    if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', file, ...args], { stdio: 'pipe' });
    else execFileSync(file, args, { stdio: 'pipe' });
  };
  const data = join(dir, 'db');
  const port = await freePort();
  try {
    run('initdb', ['-D', data, '-A', 'trust', '-U', 'app', '--no-sync', '-E', 'UTF8', '--locale', 'C']);
    run('pg_ctl', [
      '-D',
      data,
      '-l',
      join(dir, 'log'),
      '-w',
      'start',
      '-o',
      // fsync off: throwaway test data only (never the README's production advice).
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300`,
    ]);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    const stderr = (e as { stderr?: Buffer }).stderr?.toString('utf8') ?? '';
    throw new Error(`Could not start a throwaway PostgreSQL with ${bin}: ${stderr || String(e)}`, {
      cause: e,
    });
  }
  return {
    url: `postgres://app@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      return Promise.resolve();
    },
  };
}

/** vitest globalSetup: one cluster for the whole run, its URL provided to every test file. */
export default async function setup(project: {
  provide(key: 'postgresUrl' | 'postgresProblem', value: string): void;
}): Promise<() => Promise<void>> {
  try {
    const cluster = await startCluster();
    project.provide('postgresUrl', cluster.url);
    project.provide('postgresProblem', '');
    return () => cluster.stop();
  } catch (e) {
    project.provide('postgresUrl', '');
    project.provide('postgresProblem', e instanceof Error ? e.message : String(e));
    return async () => {};
  }
}

export interface TestDatabase {
  /** `postgres://…` of a fresh, empty database of its own. */
  readonly url: string;
  drop(): Promise<void>;
}

/** A fresh database on the run's cluster (fails, saying why, when there is none). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const base = inject('postgresUrl');
  if (base === '') throw new Error(inject('postgresProblem') || 'no PostgreSQL for this run');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}
