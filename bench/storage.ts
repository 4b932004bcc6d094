/**
 * Storage growth per lesson (issue 2, §10.3): with content-addressed, shared objects a lesson should
 * add bytes in proportion to what changed (one entry plus its path in the tree), not to the size of
 * the directory. For directories of 100, 10,000 and 100,000 customers: import the directory through
 * the authority, teach LESSONS lessons to existing customers, and measure the object bytes and the
 * SQLite file bytes each lesson added.
 *
 * Run alone: node --import tsx bench/storage.ts [results-dir]   (default bench-results/)
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql, type Kysely } from 'kysely';
import { createAuthority } from '../src/domain/authority/index.ts';
import { createLearnables } from '../src/domain/learnables/index.ts';
import { tenantId } from '../src/domain/tenant.ts';
import { openDatabase } from '../src/store/database.ts';
import { createSqliteDefinitionStore } from '../src/store/sqlite-definition-store.ts';

const SIZES = [100, 10_000, 100_000];
const LESSONS = 20;
const tenant = tenantId('bench');
// An application (Appendix B's pre-alert application) may name the human it writes for (§13.2).
const teacher = { id: 'bench-app', kind: 'application' as const, tenant, roles: ['admin' as const] };

interface Row {
  customers: number;
  lessons: number;
  objectBytesPerLesson: number;
  objectsPerLesson: number;
  historyBytesPerLesson: number;
  fileBytesPerLesson: number;
  directoryObjectBytes: number;
  importSeconds: number;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrated database is untyped
async function measure(db: Kysely<any>, file: string) {
  const o = await sql<{
    n: number;
    bytes: number;
  }>`select count(*) as n, coalesce(sum(length(body)), 0) as bytes from objects`.execute(db);
  const h = await sql<{
    bytes: number;
  }>`select coalesce(sum(length(describes) + length(coalesce(value, '')) + length(version_id) + length(coalesce(previous_version_id, '')) + length(taught_by) + length(at) + length(action) + length(coalesce(collection, '')) + length(coalesce(entry, '')) + length(coalesce(reason, ''))), 0) as bytes from activations`.execute(
    db,
  );
  await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
  return {
    objects: Number(o.rows[0]!.n),
    objectBytes: Number(o.rows[0]!.bytes),
    historyBytes: Number(h.rows[0]!.bytes),
    fileBytes: statSync(file).size,
  };
}

async function measureSize(customers: number): Promise<Row> {
  const dir = mkdtempSync(join(tmpdir(), 'lt-bench-storage-'));
  const file = join(dir, 'learnables.sqlite');
  const db = await openDatabase({ file });
  try {
    const authority = createAuthority({
      store: createSqliteDefinitionStore(db),
      learnables: createLearnables(),
      settings: { identificationMargin: 0.5 },
      clock: { now: () => new Date().toISOString() },
    });
    const entries: Record<string, Record<string, unknown>[]> = {};
    for (let i = 0; i < customers; i++) {
      entries[`customer-${i}`] = [
        { label: `Customer ${i} Trading LLC`, pattern: `@customer-${i}\\.example`, where: 'from' },
      ];
    }
    const started = performance.now();
    await authority.import(tenant, teacher, {
      directory: { collections: { customers: entries } },
      taughtBy: 'bench@warehouse.example',
    });
    const importSeconds = (performance.now() - started) / 1000;
    const before = await measure(db, file);
    for (let k = 0; k < LESSONS; k++) {
      const i = Math.floor((((k * 7919) % customers) + customers) % customers);
      const r = await authority.absorb(tenant, teacher, {
        collection: 'customers',
        entry: `customer-${i}`,
        value: { pattern: `CUST${i}-REF-${k}-\\d{5}`, where: 'subject' },
        taughtBy: 'dana@warehouse.example',
        reason: 'benchmark lesson',
      });
      if (!r.learned) throw new Error(`lesson ${k} was not learned`);
    }
    const after = await measure(db, file);
    return {
      customers,
      lessons: LESSONS,
      objectBytesPerLesson: Math.round((after.objectBytes - before.objectBytes) / LESSONS),
      objectsPerLesson: (after.objects - before.objects) / LESSONS,
      historyBytesPerLesson: Math.round((after.historyBytes - before.historyBytes) / LESSONS),
      fileBytesPerLesson: Math.round((after.fileBytes - before.fileBytes) / LESSONS),
      directoryObjectBytes: before.objectBytes,
      importSeconds: Math.round(importSeconds * 10) / 10,
    };
  } finally {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A section of `npm run bench` (bench/run.ts); also runnable alone. */
export async function run(context: { readonly outDir: string }): Promise<void> {
  const outDir = context.outDir;
  const rows: Row[] = [];
  for (const n of SIZES) rows.push(await measureSize(n));

  const header = [
    'customers',
    'objects/lesson',
    'object bytes/lesson',
    'history bytes/lesson',
    'file bytes/lesson',
    'directory object bytes',
    'import s',
  ];
  const lines = rows.map((r) =>
    [
      r.customers,
      r.objectsPerLesson,
      r.objectBytesPerLesson,
      r.historyBytesPerLesson,
      r.fileBytesPerLesson,
      r.directoryObjectBytes,
      r.importSeconds,
    ].map(String),
  );
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: readonly string[]) => cells.map((c, i) => c.padStart(widths[i]!)).join('  ');
  console.log(`storage growth per lesson (${LESSONS} lessons after importing the directory)`);
  console.log(fmt(header));
  for (const l of lines) console.log(fmt(l));
  const first = rows[0]!;
  const last = rows[rows.length - 1]!;
  console.log(
    `ratio object bytes/lesson at ${last.customers} vs ${first.customers} customers: ${(last.objectBytesPerLesson / first.objectBytesPerLesson).toFixed(2)}x for a ${last.customers / first.customers}x directory`,
  );
  mkdirSync(outDir, { recursive: true });
  writeFileSync(
    join(outDir, 'storage.json'),
    `${JSON.stringify({ at: new Date().toISOString(), lessons: LESSONS, rows }, null, 2)}\n`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await run({ outDir: process.argv[2] ?? 'bench-results' });
}
