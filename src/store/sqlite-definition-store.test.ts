// Invariant: the head and person handles a store remembers are never stale: a commit, an erasure or a new person through any store on the connection, or any commit by another connection (another process), is seen by the next read (§10.3, §14).
import type { Kysely } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Activation } from '../domain/definitions/index.ts';
import { tenantId } from '../domain/tenant.ts';
import { STORE_ENGINES, useStoreEngine } from '../../test/support/store-engines.ts';
import { createSqliteDefinitionStore } from './sqlite-definition-store.ts';

const demo = tenantId('demo');

function activation(n: number, taughtBy = 'person-1'): Activation {
  return {
    definitionVersion: n,
    action: 'teach',
    versionId: `sha256:${String(n).repeat(64).slice(0, 64)}`,
    previousVersionId: null,
    taughtBy,
    writer: { principal: 'dana@warehouse.example', kind: 'person', tokenId: 'tok_1' },
    reason: null,
    describes: `version ${n}`,
    collection: null,
    entry: null,
    value: { n },
    target: null,
    at: '2026-09-07T09:00:00.000Z',
  };
}

describe.each(STORE_ENGINES)('$name definition store: remembered reads', ({ name }) => {
  const engine = useStoreEngine(name);
  let first = true;
  beforeEach(() => {
    first = true;
  });
  // The first connection of a test is a fresh store; every later one another connection to it.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async function connect(): Promise<Kysely<any>> {
    if (!first) return await engine.connect();
    first = false;
    return await engine.fresh();
  }

  it('sees a commit by another connection (another process) at the next read (§10.3)', async () => {
    const server = createSqliteDefinitionStore(await connect());
    const cli = createSqliteDefinitionStore(await connect());
    expect(await server.head(demo)).toBeNull();
    expect(
      await cli.commit(demo, { expectedDefinitionVersion: 0, objects: [], activation: activation(1) }),
    ).toBe('committed');
    expect((await server.head(demo))?.definitionVersion).toBe(1);
    expect(
      await cli.commit(demo, { expectedDefinitionVersion: 1, objects: [], activation: activation(2) }),
    ).toBe('committed');
    expect((await server.head(demo))?.definitionVersion).toBe(2);
  });

  it('sees a commit through another store on the same connection at the next read', async () => {
    const db = await connect();
    const reader = createSqliteDefinitionStore(db);
    const writer = createSqliteDefinitionStore(db);
    await writer.commit(demo, { expectedDefinitionVersion: 0, objects: [], activation: activation(1) });
    expect((await reader.head(demo))?.definitionVersion).toBe(1);
    await writer.commit(demo, { expectedDefinitionVersion: 1, objects: [], activation: activation(2) });
    expect((await reader.head(demo))?.definitionVersion).toBe(2);
  });

  it('never shows a handle erased by another connection or through this one (§14)', async () => {
    const server = createSqliteDefinitionStore(await connect());
    const cli = createSqliteDefinitionStore(await connect());
    const dana = await server.personId(demo, 'dana@origin.example');
    const sam = await server.personId(demo, 'sam@origin.example');
    expect(await server.personHandle(demo, dana)).toBe('dana@origin.example');
    expect(await server.personHandle(demo, sam)).toBe('sam@origin.example');
    expect(await cli.erasePerson(demo, 'dana@origin.example')).toBe(1);
    expect(await server.personHandle(demo, dana)).toBeNull();
    expect(await server.erasePerson(demo, 'sam@origin.example')).toBe(1);
    expect(await server.personHandle(demo, sam)).toBeNull();
  });

  it('lets one of two writers racing for the same next version commit and tells the other conflict (§10.2)', async () => {
    const one = createSqliteDefinitionStore(await connect());
    const two = createSqliteDefinitionStore(await connect());
    // Two SQLite connections in one thread cannot interleave (better-sqlite3 is synchronous): the
    // loser waits out the busy timeout (5 s) and gets 'conflict', so one round there; PostgreSQL races for real.
    const rounds = name === 'PostgreSQL' ? 5 : 1;
    for (let n = 1; n <= rounds; n++) {
      const results = await Promise.all(
        [one, two].map((s, i) =>
          s.commit(demo, {
            expectedDefinitionVersion: n - 1,
            objects: [{ hash: `${n}-${i}`.padEnd(64, '0'), body: `{"writer":${i}}` }],
            activation: activation(n, `person-${i}`),
          }),
        ),
      );
      expect([...results].sort()).toEqual(['committed', 'conflict']);
      const winner = results.indexOf('committed');
      // The loser wrote nothing: its activation and its objects are both absent.
      expect((await one.head(demo))?.taughtBy).toBe(`person-${winner}`);
      const loserObject = `${n}-${1 - winner}`.padEnd(64, '0');
      expect((await two.getObjects(demo, [loserObject])).size).toBe(0);
    }
  });

  it('hands out the remembered head frozen, so no reader can change what the next one gets', async () => {
    const store = createSqliteDefinitionStore(await connect());
    await store.commit(demo, { expectedDefinitionVersion: 0, objects: [], activation: activation(1) });
    const head = (await store.head(demo))!;
    expect(Object.isFrozen(head)).toBe(true);
    expect(Object.isFrozen(head.value)).toBe(true);
    expect(await store.head(demo)).toEqual(head);
  });
});
