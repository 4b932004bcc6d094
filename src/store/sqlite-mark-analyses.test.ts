// Invariant: kept analyses are per tenant and per analyser version (§13.2); a §14 erase deletes the
// tenant's rows and counts them, since a mark source may hold the erased identifier.
import type { Kysely } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { tenantId } from '../domain/tenant.ts';
import { STORE_ENGINES, useStoreEngine } from '../../test/support/store-engines.ts';
import { createSqliteMarkAnalyses, eraseMarkAnalyses } from './sqlite-mark-analyses.ts';

const demo = tenantId('demo');
const other = tenantId('other');

describe.each(STORE_ENGINES)('$name mark analyses', ({ name }) => {
  const engine = useStoreEngine(name);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrated database is untyped
  let db: Kysely<any>;
  beforeEach(async () => {
    db = await engine.fresh();
  });

  it("gives a tenant back its own rows, by source, and never another tenant's", async () => {
    const store = createSqliteMarkAnalyses(db);
    await store.save(
      demo,
      'a1',
      new Map([
        ['dana@origin\\.example', 'x1'],
        ['norgate\\s+motors', 'x2'],
      ]),
    );
    await store.save(other, 'a1', new Map([['gulf\\s+trade', 'y1']]));
    expect(await store.load(demo, 'a1')).toEqual(
      new Map([
        ['dana@origin\\.example', 'x1'],
        ['norgate\\s+motors', 'x2'],
      ]),
    );
    expect(await store.load(other, 'a1')).toEqual(new Map([['gulf\\s+trade', 'y1']]));
    expect(await store.load(tenantId('nobody'), 'a1')).toEqual(new Map());
  });

  it("keeps adding to a tenant's rows, replacing a source's row when it is written again", async () => {
    const store = createSqliteMarkAnalyses(db);
    await store.save(demo, 'a1', new Map([['s1', 'old']]));
    await store.save(
      demo,
      'a1',
      new Map([
        ['s1', 'new'],
        ['s2', 'x'],
      ]),
    );
    expect(await store.load(demo, 'a1')).toEqual(
      new Map([
        ['s1', 'new'],
        ['s2', 'x'],
      ]),
    );
  });

  it("reads only the analyser asked for, and drops the tenant's rows of another one when it writes", async () => {
    const store = createSqliteMarkAnalyses(db);
    await store.save(demo, 'a1', new Map([['s1', 'by a1']]));
    await store.save(other, 'a1', new Map([['s1', 'by a1']]));
    expect(await store.load(demo, 'a2')).toEqual(new Map());
    await store.save(demo, 'a2', new Map([['s2', 'by a2']]));
    expect(await store.load(demo, 'a1')).toEqual(new Map());
    expect(await store.load(demo, 'a2')).toEqual(new Map([['s2', 'by a2']]));
    expect(await store.load(other, 'a1')).toEqual(new Map([['s1', 'by a1']]));
  });

  it('writes thousands of rows in one call', async () => {
    const store = createSqliteMarkAnalyses(db);
    const many = new Map(Array.from({ length: 5_000 }, (_, i) => [`source-${i}\\d+`, `analysis ${i}`]));
    await store.save(demo, 'a1', many);
    expect(await store.load(demo, 'a1')).toEqual(many);
  });

  it("loses the tenant's rows, and only the tenant's, when an identifier is erased (§14)", async () => {
    const store = createSqliteMarkAnalyses(db);
    await store.save(
      demo,
      'a1',
      new Map([
        ['dana@origin\\.example', 'x'],
        ['norgate\\s+motors', 'y'],
      ]),
    );
    await store.save(other, 'a1', new Map([['dana@origin\\.example', 'x']]));
    expect(await eraseMarkAnalyses(db, demo)).toBe(2);
    expect(await store.load(demo, 'a1')).toEqual(new Map());
    expect((await store.load(other, 'a1')).size).toBe(1);
  });
});
