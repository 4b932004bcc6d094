// Invariant: operators create, list and revoke tenant-bound tokens from the CLI (printed once, stored hashed), and `rules` answers which rules were in force for a task and who put them there (§13.2, §13.4).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.ts';
import { DB_FILE_NAME } from '../../src/cli/knowledge.ts';
import { EXTENSION_URI } from '../../src/domain/extension.ts';
import { openDatabase } from '../../src/store/database.ts';
import { createSqliteTokenStore } from '../../src/store/sqlite-token-store.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'lt-cli-tokens-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli([...argv, '--data-dir', dataDir], {
    out: (l) => (out += `${l}\n`),
    err: (l) => (err += `${l}\n`),
    env: {},
  });
  return { code, out, err };
}

async function withDb<T>(fn: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>): Promise<T> {
  const db = await openDatabase({ file: join(dataDir, DB_FILE_NAME) });
  try {
    return await fn(db);
  } finally {
    await db.destroy();
  }
}

describe('learnables-triage tokens', () => {
  it('creates a token bound to the tenant and principal, printed once and stored hashed (§13.2)', async () => {
    const created = await cli(
      'tokens',
      'create',
      '--tenant',
      'demo',
      '--principal',
      'dana@warehouse.example',
      '--kind',
      'person',
      '--roles',
      'read,teach',
    );
    expect(created.code).toBe(0);
    const token = /\b(lt_[A-Za-z0-9_-]{43})\b/.exec(created.out)?.[1];
    expect(token).toBeDefined();

    const principal = await withDb((db) => createSqliteTokenStore(db).verify(token!));
    expect(principal).toEqual({
      id: 'dana@warehouse.example',
      kind: 'person',
      tenant: 'demo',
      roles: ['read', 'teach'],
      tokenId: expect.stringMatching(/^tok_[0-9a-f]{12}$/),
    });

    const listed = await cli('tokens', 'list', '--tenant', 'demo');
    expect(listed.out).toContain('dana@warehouse.example (person)  roles read,teach');
    expect(listed.out).not.toContain(token);
    expect((await cli('tokens', 'list', '--tenant', 'acme')).out).toContain('has no tokens');

    const id = /(tok_[0-9a-f]{12})/.exec(listed.out)![1]!;
    expect((await cli('tokens', 'revoke', '--tenant', 'acme', '--id', id)).code).toBe(1);
    expect((await cli('tokens', 'revoke', '--tenant', 'demo', '--id', id)).code).toBe(0);
    expect(await withDb((db) => createSqliteTokenStore(db).verify(token!))).toBeNull();
  });

  it('refuses an unknown role or kind with the usage (exit 2)', async () => {
    const bad = await cli('tokens', 'create', '--tenant', 'demo', '--principal', 'x', '--kind', 'robot');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--kind must be one of person, application, service/);
    expect(
      (
        await cli(
          'tokens',
          'create',
          '--tenant',
          'demo',
          '--principal',
          'x',
          '--kind',
          'person',
          '--roles',
          'write',
        )
      ).code,
    ).toBe(2);
    expect((await cli('tokens', 'frobnicate')).code).toBe(2);
  });
});

describe('learnables-triage rules', () => {
  it('prints the rules a task was decided under and who put them there, from stored state (§13.4)', async () => {
    const teach = (entry: string, address: string) =>
      cli(
        'teach',
        '--tenant',
        'rules',
        '--collection',
        'customers',
        '--entry',
        entry,
        '--set',
        `pattern=${address}`,
        '--set',
        'where=from',
        // Named, so a lesson for a new customer creates it (issue 12.3).
        '--set',
        `label=${entry}`,
        '--by',
        'dana@warehouse.example',
        '--as',
        'ops@warehouse.example',
        '--json',
      );
    const first = JSON.parse((await teach('northgate', 'billing@origin\\.example')).out) as {
      versionId: string;
    };
    await withDb((db) =>
      db
        .insertInto('tasks')
        .values({
          tenant: '',
          owner: 'rules/*',
          id: 'task-42',
          context_id: 'ctx',
          status_last_updated: 1,
          status_state: 'TASK_STATE_COMPLETED',
          metadata: JSON.stringify({
            [EXTENSION_URI]: { pin: { definitionVersion: 1, versionId: first.versionId } },
          }),
          protocol_version: '1.0',
        })
        .execute(),
    );
    await teach('gulftrade', 'ops@gulf\\.example'); // later: not in force for task-42

    const byTask = await cli('rules', '--tenant', 'rules', '--task', 'task-42');
    expect(byTask.code).toBe(0);
    expect(byTask.out).toContain(`definitionVersion 1 (${first.versionId})`);
    expect(byTask.out).toMatch(
      /customers\/northgate: matches the pattern 'billing@origin\\\.example' in the from\n\s+taught by dana@warehouse\.example, via ops@warehouse\.example in #1/,
    );
    expect(byTask.out).not.toContain('gulftrade');

    const byVersion = await cli('rules', '--tenant', 'rules', '--version', first.versionId, '--json');
    expect(JSON.parse(byVersion.out).rules).toHaveLength(1);

    const otherTenant = await cli('rules', '--tenant', 'demo', '--task', 'task-42');
    expect(otherTenant.code).toBe(1);
    expect(otherTenant.err).toContain('no task "task-42"');
    expect((await cli('rules', '--tenant', 'rules')).code).toBe(2);
  });
});
