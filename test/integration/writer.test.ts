// Invariant: every activation records the authenticated principal that wrote it beside taughtBy; a person's token writes only as that person; an application may name the human it acts for, and history, rules-in-force, show-back and the CLI then say both; a taughtBy naming an application or service is refused (§9, §13.2, §13.4).
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Principal, Role } from '../../src/domain/authority/index.ts';
import { TEACH_METHOD } from '../../src/domain/extension.ts';
import { tenantId } from '../../src/domain/tenant.ts';
import { DATABASE_FILE } from '../../src/main.ts';
import { openDatabase } from '../../src/store/database.ts';
import { migrate, MIGRATIONS } from '../../src/store/migrations/index.ts';
import { createSqliteDefinitionStore } from '../../src/store/sqlite-definition-store.ts';
import { createSqliteTokenStore } from '../../src/store/sqlite-token-store.ts';
import { authorityCall, cliRun, jsonRpc } from '../support/calls.ts';
import { startInProcess, tempDataDir, type Host } from '../e2e/host.ts';

const demo = tenantId('demo');
const DANA = 'dana@warehouse.example';
const DIRECTOR = 'director@warehouse.example';

const hosts: Host[] = [];
const cleanups: (() => void)[] = [];
afterEach(async () => {
  while (hosts.length > 0) await hosts.pop()!.close();
  while (cleanups.length > 0) cleanups.pop()!();
});

async function start(): Promise<Host> {
  const h = await startInProcess();
  hosts.push(h);
  return h;
}

/** A token of the demo tenant, created in the server's own SQLite file; returns it and its id. */
async function token(
  host: Host,
  principal: string,
  kind: Principal['kind'],
  roles: readonly Role[],
): Promise<{ token: string; id: string }> {
  const db = await openDatabase({ file: join(host.dataDir, DATABASE_FILE) });
  try {
    const { token, record } = await createSqliteTokenStore(db).create({
      tenant: demo,
      principal,
      kind,
      roles,
    });
    return { token, id: record.id };
  } finally {
    await db.destroy();
  }
}

const api = (host: Host, bearer: string, method: 'GET' | 'POST', path: string, body?: unknown) =>
  authorityCall(host.url, bearer, method, path, body);
const rpc = (host: Host, bearer: string, method: string, params: unknown) =>
  jsonRpc(host.url, bearer, method, params);

function mailFrom(address: string): Record<string, unknown> {
  const text = `From: ${address}\r\nTo: imports@warehouse.example\r\nSubject: Pre-alert PA-2026-0917\r\nMessage-ID: <${randomUUID()}@origin.example>\r\n\r\nShipment details below.\r\n`;
  return {
    role: 'ROLE_USER',
    messageId: randomUUID(),
    parts: [{ raw: Buffer.from(text).toString('base64'), mediaType: 'message/rfc822', filename: 'mail.eml' }],
  };
}

const lesson = (taughtBy: string, address = 'billing@origin\\.example') => ({
  collection: 'customers',
  entry: 'northgate',
  value: { pattern: address, where: 'from' },
  taughtBy,
  reason: 'Northgate’s billing desk sends the pre-alerts',
});

describe('a person writes only as itself (§13.2)', () => {
  it('refuses with 403 a person’s token teaching, rolling back, reverting or erasing as somebody else, and writes nothing', async () => {
    const host = await start();
    const dana = await token(host, DANA, 'person', ['read', 'admin']);
    const before = (await api(host, dana.token, 'GET', '/history')).body.history.length;

    const taught = await api(host, dana.token, 'POST', '/lessons', lesson(DIRECTOR));
    expect(taught.status).toBe(403);
    expect(taught.body.error.code).toBe('FORBIDDEN');
    expect(taught.body.error.message).toBe(
      `This token belongs to ${DANA}; it cannot write as ${DIRECTOR}. Sign in as ${DIRECTOR}, or send taughtBy "${DANA}".`,
    );
    const viaTeach = await rpc(host, dana.token, TEACH_METHOD, lesson(DIRECTOR));
    expect(viaTeach.error.data[0].reason).toBe('FORBIDDEN');
    expect(viaTeach.error.message).toContain(`cannot write as ${DIRECTOR}`);
    for (const [path, body] of [
      ['/rollback', { to: 1, taughtBy: DIRECTOR }],
      ['/revert', { activation: 1, taughtBy: DIRECTOR }],
      ['/erase', { identifier: 'billing@origin.example', taughtBy: DIRECTOR }],
    ] as const) {
      const r = await api(host, dana.token, 'POST', path, body);
      expect([path, r.status, r.body.error.code]).toEqual([path, 403, 'FORBIDDEN']);
    }
    expect((await api(host, dana.token, 'GET', '/history')).body.history).toHaveLength(before);

    // The same person, as itself: learned, and the history names her token as the writer.
    // (compared as people handles are: trimmed, case-insensitive)
    const own = await api(host, dana.token, 'POST', '/lessons', lesson(' Dana@Warehouse.example '));
    expect(own.status).toBe(200);
    const [top] = (await api(host, dana.token, 'GET', '/history?limit=1')).body.history;
    expect(top).toMatchObject({
      action: 'teach',
      taughtBy: 'Dana@Warehouse.example',
      writer: { principal: DANA, kind: 'person', tokenId: dana.id },
    });
  });

  it('records the writing token of every activation: teach, the Teach method, rollback, revert, erase and import (§13.4)', async () => {
    const host = await start();
    const app = await token(host, 'app:pre-alert', 'application', ['read', 'admin']);
    const v = (await api(host, app.token, 'GET', '/head')).body.definitionVersion as number;
    await api(host, app.token, 'POST', '/lessons', lesson(DANA));
    await rpc(host, app.token, TEACH_METHOD, lesson(DANA, 'ops@origin\\.example'));
    await api(host, app.token, 'POST', '/revert', { activation: v + 2, taughtBy: DANA });
    await api(host, app.token, 'POST', '/rollback', { to: v, taughtBy: DANA });
    await api(host, app.token, 'POST', '/erase', { identifier: 'Northgate Motors', taughtBy: DANA });
    const rows = (await api(host, app.token, 'GET', `/history?limit=5`)).body.history;
    expect(rows.map((r: { action: string }) => r.action)).toEqual([
      'erase',
      'rollback',
      'revert',
      'teach',
      'teach',
    ]);
    for (const r of rows) {
      expect(r.writer).toEqual({ principal: 'app:pre-alert', kind: 'application', tokenId: app.id });
      expect(r.taughtBy).toBe(DANA);
    }
    // The first-start import was written by the server itself, as a service, without a token.
    const [first] = (await api(host, app.token, 'GET', `/history?beforeVersion=2`)).body.history;
    expect(first).toMatchObject({
      action: 'import',
      writer: { principal: 'system:first-start', kind: 'service', tokenId: null },
    });
  });
});

describe('an application writes for the person it names (§13.4, Appendix B)', () => {
  it('shows the person and the application in history, rules-in-force and show-back', async () => {
    const host = await start();
    const app = await token(host, 'app:pre-alert', 'application', ['read', 'teach']);
    // A message nobody has taught about parks its task (Appendix B step 2).
    const asked = (await rpc(host, app.token, 'SendMessage', { message: mailFrom('billing@origin.example') }))
      .result.task;
    expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');

    const taught = await api(host, app.token, 'POST', '/lessons', lesson(DANA));
    expect(taught.status).toBe(200);
    const [top] = (await api(host, app.token, 'GET', '/history?limit=1')).body.history;
    expect(top).toMatchObject({
      taughtBy: DANA,
      writer: { principal: 'app:pre-alert', kind: 'application', tokenId: app.id },
    });

    const rules = (await api(host, app.token, 'GET', `/rules-in-force?versionId=${taught.body.versionId}`))
      .body.rules as { entry: string; describes: string; taughtBy: string; via: string | null }[];
    expect(rules.find((r) => r.describes.includes('billing@origin'))).toMatchObject({
      entry: 'northgate',
      taughtBy: DANA,
      via: 'app:pre-alert',
    });
    // The demo directory's own rules were written by nobody on anyone's behalf.
    expect(rules.filter((r) => !r.describes.includes('billing@origin')).every((r) => r.via === null)).toBe(
      true,
    );

    // Show-back (§11): the reading names who taught the mark, and through what.
    const recheck = (
      await rpc(host, app.token, 'SendMessage', {
        message: {
          role: 'ROLE_USER',
          messageId: randomUUID(),
          parts: [{ data: { recheck: { taskId: asked.id } } }],
        },
      })
    ).result.task;
    const report = recheck.artifacts[0].parts.find((p: { data?: unknown }) => p.data).data;
    expect(report.customer.settled).toBe(true);
    const evidence = report.customer.candidates[0].evidence[0];
    expect(evidence.taughtBy).toBe(`${DANA}, via app:pre-alert`);
  });

  it('refuses a taughtBy naming an application or a service that holds a token (§9)', async () => {
    const host = await start();
    const app = await token(host, 'app:pre-alert', 'application', ['read', 'teach']);
    await token(host, 'svc-importer', 'service', ['read']);
    for (const name of ['app:pre-alert', 'svc-importer', 'SVC-Importer', 'demo-operator']) {
      const r = await api(host, app.token, 'POST', '/lessons', lesson(name));
      expect([name, r.status, r.body.error.code]).toEqual([name, 422, 'TAUGHT_BY_NOT_A_PERSON']);
    }
  });
});

describe('the CLI writes as a named operator (§13.4)', () => {
  const data = () => {
    const d = tempDataDir();
    cleanups.push(d.remove);
    return d.dir;
  };
  const cli = (dir: string, ...argv: string[]) => cliRun([...argv, '--data-dir', dir, '--tenant', 'demo']);
  const teachArgs = ['teach', '--collection', 'customers', '--entry', 'northgate', '--set'];

  it('refuses every writing verb without --as, saying how to give it', async () => {
    const dir = data();
    for (const argv of [
      [...teachArgs, 'pattern=billing@origin\\.example', '--set', 'label=Northgate', '--by', DANA],
      ['rollback', '--to', '0', '--by', DANA],
      ['revert', '--activation', '1', '--by', DANA],
      ['erase', '--identifier', 'billing@origin.example', '--by', DANA],
      ['import', join(import.meta.dirname, '..', '..', 'fixtures', 'directory', 'demo.json'), '--by', DANA],
    ]) {
      const r = await cli(dir, ...argv);
      expect([argv[0], r.code]).toEqual([argv[0], 2]);
      expect(r.err).toContain('--as <operator>');
    }
  });

  it('records --as as the writer and shows the person and the operator', async () => {
    const dir = data();
    const imported = await cli(
      dir,
      'import',
      join(import.meta.dirname, '..', '..', 'fixtures', 'directory', 'demo.json'),
      '--by',
      'ops@warehouse.example',
      '--as',
      'ops@warehouse.example',
    );
    expect(imported.code).toBe(0);
    const taught = await cli(
      dir,
      ...teachArgs,
      'pattern=billing@origin\\.example',
      '--by',
      DANA,
      '--as',
      'ops@warehouse.example',
    );
    expect(taught.code).toBe(0);
    const history = JSON.parse((await cli(dir, 'history', '--json')).out) as {
      taughtBy: string;
      writer: unknown;
    }[];
    expect(history.map((h) => [h.taughtBy, h.writer])).toEqual([
      [DANA, { principal: 'ops@warehouse.example', kind: 'operator', tokenId: null }],
      ['ops@warehouse.example', { principal: 'ops@warehouse.example', kind: 'operator', tokenId: null }],
    ]);
    const text = (await cli(dir, 'history')).out;
    expect(text).toContain(`by ${DANA} customers/northgate`);
    expect(text).toContain('written by ops@warehouse.example (operator)');
    const shown = (await cli(dir, 'show')).out;
    expect(shown).toContain(`${DANA}, via ops@warehouse.example`);
  });
});

describe('activations written before writers were recorded (migration 006)', () => {
  it('reads them as an unknown writer, never as anybody in particular', async () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema is the migrations'
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
    try {
      await migrate(
        db,
        MIGRATIONS.filter((m) => m.name < '006'),
      );
      await db
        .insertInto('activations')
        .values({
          tenant: 'demo',
          definition_version: 1,
          action: 'teach',
          version_id: `sha256:${'a'.repeat(64)}`,
          previous_version_id: null,
          taught_by: 'person-1',
          reason: null,
          describes: 'an old lesson',
          collection: null,
          entry: null,
          value: null,
          target: null,
          at: '2026-01-01T00:00:00.000Z',
        })
        .execute();
      await migrate(db);
      const [old] = await createSqliteDefinitionStore(db).history(demo);
      expect(old!.writer).toEqual({ principal: '[unknown]', kind: 'unknown', tokenId: null });
    } finally {
      await db.destroy();
    }
  });
});
