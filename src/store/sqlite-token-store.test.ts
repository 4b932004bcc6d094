// Invariant: a token verifies only as itself, bound to its tenant and roles, is stored only as a hash, and stops working when revoked (§13.2).
import type { Kysely } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { tenantId } from '../domain/tenant.ts';
import { STORE_ENGINES, useStoreEngine } from '../../test/support/store-engines.ts';
import { createSqliteTokenStore, hashToken, type TokenStore } from './sqlite-token-store.ts';

const demo = tenantId('demo');
const acme = tenantId('acme');

describe.each(STORE_ENGINES)('$name token store', ({ name }) => {
  const engine = useStoreEngine(name);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let db: Kysely<any>;
  let store: TokenStore;
  beforeEach(async () => {
    db = await engine.fresh();
    store = createSqliteTokenStore(db);
  });

  it('verifies a created token as its principal, tenant and roles (§13.2)', async () => {
    const { token, record } = await store.create({
      tenant: demo,
      principal: 'dana@warehouse.example',
      kind: 'person',
      roles: ['read', 'teach'],
    });
    expect(token).toMatch(/^lt_[A-Za-z0-9_-]{43}$/);
    expect(await store.verify(token)).toEqual({
      id: 'dana@warehouse.example',
      kind: 'person',
      tenant: 'demo',
      roles: ['read', 'teach'],
      // §13.4: the token is recorded as the writer of what it writes.
      tokenId: record.id,
    });
    expect(record).toMatchObject({ tenant: 'demo', principal: 'dana@warehouse.example', revokedAt: null });
  });

  it('stores only the sha256 of a token, never the token (§13.2)', async () => {
    const { token } = await store.create({
      tenant: demo,
      principal: 'app:preshipment',
      kind: 'application',
      roles: ['read'],
    });
    const rows = await db.selectFrom('tokens').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0]!.token_hash).toBe(hashToken(token));
  });

  it('rejects unknown, altered and empty tokens', async () => {
    const { token } = await store.create({
      tenant: demo,
      principal: 'app:x',
      kind: 'application',
      roles: ['read'],
    });
    expect(await store.verify(token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A'))).toBeNull();
    expect(await store.verify('')).toBeNull();
    expect(await store.verify('lt_nope')).toBeNull();
  });

  it('stops verifying a revoked token, and only its own tenant can revoke it', async () => {
    const { token, record } = await store.create({
      tenant: demo,
      principal: 'app:x',
      kind: 'application',
      roles: ['read'],
    });
    expect(await store.revoke(acme, record.id)).toBe(false);
    expect(await store.verify(token)).not.toBeNull();
    expect(await store.revoke(demo, record.id)).toBe(true);
    expect(await store.verify(token)).toBeNull();
    expect(await store.revoke(demo, record.id)).toBe(false);
    const [listed] = await store.list(demo);
    expect(listed!.revokedAt).not.toBeNull();
  });

  it('stops verifying a token the moment another process (the CLI, another replica) revokes it (§13.2)', async () => {
    const serverDb = db;
    const cliDb = await engine.connect();
    {
      const server = createSqliteTokenStore(serverDb);
      const cli = createSqliteTokenStore(cliDb);
      const { token, record } = await cli.create({
        tenant: demo,
        principal: 'app:y',
        kind: 'application',
        roles: ['read'],
      });
      expect(await server.verify(token)).toMatchObject({ id: 'app:y', tenant: demo });
      expect(await server.verify(token)).toMatchObject({ id: 'app:y', tenant: demo });
      expect(await cli.revoke(demo, record.id)).toBe(true);
      expect(await server.verify(token)).toBeNull();
    }
  });

  it('stops verifying a token revoked through another store on the same connection', async () => {
    const other = createSqliteTokenStore(db);
    const { token, record } = await store.create({
      tenant: demo,
      principal: 'app:z',
      kind: 'application',
      roles: ['read'],
    });
    expect(await store.verify(token)).not.toBeNull();
    expect(await other.revoke(demo, record.id)).toBe(true);
    expect(await store.verify(token)).toBeNull();
  });

  it('never remembers an unknown token: one created after a failed check verifies at once', async () => {
    const other = createSqliteTokenStore(db);
    expect(await store.verify('lt_not-yet')).toBeNull();
    const { token } = await other.create({
      tenant: demo,
      principal: 'late',
      kind: 'person',
      roles: ['read'],
    });
    expect(await store.verify(token)).toMatchObject({ id: 'late' });
  });

  it('lists a tenant’s tokens only', async () => {
    await store.create({ tenant: demo, principal: 'a', kind: 'person', roles: ['read'] });
    await store.create({ tenant: acme, principal: 'b', kind: 'person', roles: ['admin'] });
    expect((await store.list(demo)).map((r) => r.principal)).toEqual(['a']);
    expect((await store.list(acme)).map((r) => r.principal)).toEqual(['b']);
  });

  it('refuses a token with no roles, an unknown role or kind, naming each problem', async () => {
    await expect(
      store.create({ tenant: demo, principal: ' ', kind: 'robot' as 'person', roles: ['write' as 'read'] }),
    ).rejects.toThrow(/--principal.*--kind "robot".*role "write"/);
    await expect(store.create({ tenant: demo, principal: 'x', kind: 'person', roles: [] })).rejects.toThrow(
      /at least one role/,
    );
  });
});
