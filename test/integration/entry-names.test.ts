// Invariant: a lesson never creates an entry by accident (a typo is refused with the nearest entries by name and label, unless the lesson names the new entry through the field its learnable declares), and entry names are data: whatever name is accepted round-trips identically through teach, history, the wire, import, export and reading, in one process and in two (issue 12.3, §6.3, §9, §10.3).
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryNameProblem } from '../../src/domain/authority/index.ts';
import { canonicalJson } from '../../src/domain/json.ts';
import { EXTENSION_URI, TEACH_METHOD } from '../../src/domain/extension.ts';
import { CUSTOMER_NEW_ENTRY_FIELD } from '../../src/domain/learnables/index.ts';
import { tenantId } from '../../src/domain/tenant.ts';
import { createRemoteDefinitionSource } from '../../src/http/remote-authority.ts';
import { DATABASE_FILE } from '../../src/main.ts';
import { openDatabase } from '../../src/store/database.ts';
import { createSqliteTokenStore } from '../../src/store/sqlite-token-store.ts';
import { authorityCall, cliRun, jsonRpc } from '../support/calls.ts';
import { startInProcess, type Host } from '../e2e/host.ts';

const run = promisify(execFile);
const READER = join(import.meta.dirname, 'workers', 'read-definition-worker.ts');
const DANA = 'dana@warehouse.example';

/** Names that are object keys with a meaning in JavaScript, scripts and symbols a directory holds. */
const AWKWARD_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
  'الحمراء للتجارة', // right-to-left
  'שלום',
  '🚚 freight',
  '北方汽车',
  'x'.repeat(200), // the longest name accepted
];
/** Names refused with a reason (they could not be shown, typed or compared as what they are). */
const REFUSED_NAMES = ['', ' northgate', 'north\u0000gate', 'a\nb', 'x'.repeat(10 * 1024)];

let host: Host;
let app: string;
beforeAll(async () => {
  host = await startInProcess();
  const db = await openDatabase({ file: join(host.dataDir, DATABASE_FILE) });
  app = (
    await createSqliteTokenStore(db).create({
      tenant: tenantId('demo'),
      principal: 'app:pre-alert',
      kind: 'application',
      roles: ['read', 'admin'],
    })
  ).token;
  await db.destroy();
});
afterAll(async () => {
  await host.close();
});

const api = (method: 'GET' | 'POST', path: string, body?: unknown) =>
  authorityCall(host.url, app, method, path, body);
const rpc = (method: string, params: unknown) => jsonRpc(host.url, app, method, params);
const cli = (...argv: string[]) => cliRun([...argv, '--data-dir', host.dataDir]);

/** Runs `body` with a fresh temporary folder, removed after. */
async function inTempDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'names-'));
  try {
    await body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What a second process reading the SQLite file finds in `tenant`'s version: name -> canonical content. */
async function readInAnotherProcess(tenant: string, versionId: string): Promise<Map<string, string>> {
  const { stdout } = await run(process.execPath, [
    '--import',
    'tsx',
    READER,
    join(host.dataDir, DATABASE_FILE),
    tenant,
    versionId,
  ]);
  const other = JSON.parse(stdout) as { collections: [string, [string, string][]][] };
  return new Map(other.collections.find(([c]) => c === 'customers')?.[1] ?? []);
}

describe('no entry by accident (issue 12.3)', () => {
  it('refuses a lesson for a customer nobody has, naming the nearest by name and label, and writes nothing', async () => {
    const before = (await api('GET', '/head')).body.definitionVersion as number;
    const lesson = {
      collection: 'customers',
      entry: 'northgat',
      value: { pattern: 'billing@origin\\.example', where: 'from' },
      taughtBy: DANA,
    };
    const r = await api('POST', '/lessons', lesson);
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('ENTRY_UNKNOWN');
    expect(r.body.error.message).toBe(
      `There is no customer "northgat" in customers; did you mean "northgate" (Northgate Motors Ltd)? Or fill in "${CUSTOMER_NEW_ENTRY_FIELD}" to create a new customer.`,
    );
    expect(r.body.error.details.suggestions).toEqual([{ entry: 'northgate', label: 'Northgate Motors Ltd' }]);
    // By label too: "gulf trade" is one edit from the label of "gulftrade".
    const byLabel = await api('POST', '/lessons', { ...lesson, entry: 'Gulf Trade' });
    expect(byLabel.body.error.details.suggestions[0].entry).toBe('gulftrade');
    // The Teach method (§12.2) goes through the same authority.
    const viaTeach = await rpc(TEACH_METHOD, lesson);
    expect(viaTeach.error.data[0].reason).toBe('ENTRY_UNKNOWN');
    expect(viaTeach.error.message).toContain('did you mean "northgate" (Northgate Motors Ltd)?');
    expect((await api('GET', '/head')).body.definitionVersion).toBe(before);
    expect(Object.keys((await api('GET', '/definition')).body.collections.customers)).not.toContain(
      'northgat',
    );
  });

  it('refuses the same typo in a dry run (§13.1) with the same nearest entries, instead of evaluating a new customer', async () => {
    const r = await api('POST', '/lessons:dry-run', {
      collection: 'customers',
      entry: 'northgat',
      value: { pattern: 'billing@origin\\.example', where: 'from' },
      taughtBy: DANA,
    });
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('ENTRY_UNKNOWN');
    expect(r.body.error.details.suggestions).toEqual([{ entry: 'northgate', label: 'Northgate Motors Ltd' }]);
  });

  it('creates the customer when the lesson names it in the field the card declares, and says so', async () => {
    // A blind client renders the field from the card (§6.3); the authority never reads it (§9).
    const card = (await (await fetch(`${host.url}/.well-known/agent-card.json`)).json()) as {
      capabilities: {
        extensions: {
          uri: string;
          params: { learnables: { collection: string; lessonFields: { name: string; label: string }[] }[] };
        }[];
      };
    };
    const ext = card.capabilities.extensions.find((e) => e.uri === EXTENSION_URI)!;
    const customers = ext.params.learnables.find((l) => l.collection === 'customers')!;
    const field = customers.lessonFields.find((f) => f.label === CUSTOMER_NEW_ENTRY_FIELD)!;
    const r = await api('POST', '/lessons', {
      collection: 'customers',
      entry: 'harbourline',
      value: { pattern: 'desk@harbourline\\.example', where: 'from', [field.name]: 'Harbourline Freight' },
      taughtBy: DANA,
    });
    expect(r.status).toBe(200);
    expect(r.body.describes).toBe(
      `new customer "harbourline": matches the pattern 'desk@harbourline\\.example' in the from, and is called 'Harbourline Freight'`,
    );
    const [top] = (await api('GET', '/history?limit=1')).body.history;
    expect(top.describes).toBe(r.body.describes);
  });
});

describe('names are data (issue 12.3, §9)', () => {
  /** Teach `name` a mark of its own through the API, and check every reading of it agrees. */
  async function roundTrip(name: string, i: number): Promise<string> {
    const address = `desk-${i}-${randomUUID().slice(0, 8)}@names.example`;
    const taught = await api('POST', '/lessons', {
      collection: 'customers',
      entry: name,
      value: { pattern: address.replace(/[.]/g, '\\.'), where: 'from', label: `Customer ${i}` },
      taughtBy: DANA,
    });
    expect([name, taught.status]).toEqual([name, 200]);
    const versionId = taught.body.versionId as string;

    // The history and the wire, active and by id: the name is an own key holding the content.
    const [top] = (await api('GET', '/history?limit=1')).body.history;
    expect(top.entry).toBe(name);
    const active = (await api('GET', '/definition')).body;
    const byId = (await api('GET', `/versions/${encodeURIComponent(versionId)}`)).body;
    for (const wire of [active, byId]) {
      expect(Object.prototype.hasOwnProperty.call(wire.collections.customers, name)).toBe(true);
      expect(Object.keys(wire.collections.customers)).toContain(name);
    }
    const content = canonicalJson(byId.collections.customers[name]);
    expect(content).toContain(`Customer ${i}`);

    // Another process reading over the wire (§12.1) sees the same entry with the same content.
    const remote = await createRemoteDefinitionSource({ url: host.url, token: app });
    const remoteEntries = (await remote.load(tenantId('demo'), versionId)).collections.get('customers')!;
    expect(canonicalJson(remoteEntries.get(name))).toBe(content);

    // Reading (§11): a message from the address reads as this customer, by this name.
    const sent = await rpc('SendMessage', {
      message: {
        role: 'ROLE_USER',
        messageId: randomUUID(),
        parts: [
          {
            mediaType: 'application/json',
            data: {
              from: address,
              to: ['imports@warehouse.example'],
              subject: 'Pre-alert',
              messageId: `${randomUUID()}@names.example`,
              body: 'Shipment details below.',
            },
          },
        ],
      },
    });
    const report = sent.result.task.artifacts[0].parts.find((p: { data?: unknown }) => p.data).data;
    expect([name, report.customer.winner]).toEqual([name, name]);
    return versionId;
  }

  it('takes each awkward name through teach, history, the wire and reading, and a second process reads the same version alike', async () => {
    let versionId = '';
    for (const [i, name] of AWKWARD_NAMES.entries()) versionId = await roundTrip(name, i);
    // A second process on the same SQLite file reads the pinned version identically (§10.3).
    const theirs = await readInAnotherProcess('demo', versionId);
    const ours = (await api('GET', `/versions/${encodeURIComponent(versionId)}`)).body.collections.customers;
    for (const name of AWKWARD_NAMES)
      expect([name, theirs.get(name)]).toEqual([name, canonicalJson(ours[name])]);
    expect([...theirs.keys()].sort()).toEqual(Object.keys(ours).sort());
  });

  it('takes random names the same way (fast-check, seeded)', async () => {
    let i = 100;
    await fc.assert(
      fc.asyncProperty(
        fc
          .string({ unit: 'grapheme', minLength: 1, maxLength: 24 })
          .filter((s) => entryNameProblem(s) === null),
        async (name) => {
          await roundTrip(name, i++);
        },
      ),
      { numRuns: 12, seed: 1203 },
    );
  });

  it('refuses an empty, padded, control-character or 10 KB name with a reason, taught or imported, and writes nothing', async () => {
    const before = (await api('GET', '/head')).body.definitionVersion as number;
    for (const name of REFUSED_NAMES) {
      const r = await api('POST', '/lessons', {
        collection: 'customers',
        entry: name,
        value: { pattern: 'desk@refused\\.example', where: 'from', label: 'Refused' },
        taughtBy: DANA,
      });
      expect([name.slice(0, 20), r.status, r.body.error.code]).toEqual([
        name.slice(0, 20),
        400,
        'LESSON_MALFORMED',
      ]);
      expect(r.body.error.details.fields).toEqual(['entry']);
    }
    await inTempDir(async (dir) => {
      for (const name of REFUSED_NAMES.slice(2)) {
        const file = join(dir, 'directory.json');
        writeFileSync(
          file,
          JSON.stringify({ collections: { customers: { [name]: [{ pattern: 'desk@refused\\.example' }] } } }),
        );
        const r = await cli(
          'import',
          file,
          '--tenant',
          'demo',
          '--by',
          DANA,
          '--as',
          'ops@warehouse.example',
        );
        expect([name.slice(0, 20), r.code]).toEqual([name.slice(0, 20), 1]);
        expect(r.err).toMatch(/must be one line of at most 200 characters/);
      }
    });
    expect((await api('GET', '/head')).body.definitionVersion).toBe(before);
  });

  it('imports and exports every awkward name unchanged (CLI import, then show --json)', async () => {
    await inTempDir(async (dir) => {
      const file = join(dir, 'directory.json');
      const customers: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
      AWKWARD_NAMES.forEach((name, i) => {
        customers[name] = [{ pattern: `import-${i}@names\\.example`, where: 'from' }];
      });
      writeFileSync(file, JSON.stringify({ collections: { customers } }));
      const imported = await cli(
        'import',
        file,
        '--tenant',
        'names',
        '--by',
        DANA,
        '--as',
        'ops@warehouse.example',
      );
      expect(imported.code).toBe(0);
      const shown = JSON.parse((await cli('show', '--tenant', 'names', '--json')).out) as {
        versionId: string;
        collections: { customers: Record<string, unknown> };
      };
      expect(Object.keys(shown.collections.customers).sort()).toEqual([...AWKWARD_NAMES].sort());
      for (const name of AWKWARD_NAMES) {
        expect(Object.prototype.hasOwnProperty.call(shown.collections.customers, name)).toBe(true);
      }
      // The export is what a second process reads from the file.
      const theirs = await readInAnotherProcess('names', shown.versionId);
      for (const name of AWKWARD_NAMES) {
        expect([name, theirs.get(name)]).toEqual([name, canonicalJson(shown.collections.customers[name])]);
      }
    });
  });
});
