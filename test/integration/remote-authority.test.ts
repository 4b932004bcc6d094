// Invariant: an agent resolving definitions from another process's authority sees what that authority holds (active head, any version, tombstones), only for its token's tenant, with no definition state of its own beyond an immutable-version cache (§12.1, §10.3, §13.2); with `follow` it learns of a new activation by the authority's long-poll, not by its time to live (issue 15).
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isDomainError } from '../../src/domain/errors.ts';
import { tenantId } from '../../src/domain/tenant.ts';
import { createAgentSideRouter } from '../../src/http/authority-api.ts';
import { createRemoteDefinitionSource } from '../../src/http/remote-authority.ts';
import { customerLesson, openAuthorityHarness, type AuthorityHarness } from './authority-api-harness.ts';
import express from 'express';
import { createSqliteTaskPins } from '../../src/store/sqlite-task-pins.ts';
import { createSqliteDefinitionStore } from '../../src/store/sqlite-definition-store.ts';

const demo = tenantId('demo');

describe('remote definition source', () => {
  let h: AuthorityHarness;
  let url: string;
  let readToken: string;
  let teachToken: string;
  const calls: string[] = [];
  const countingFetch: typeof fetch = (input, init) => {
    calls.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
    return fetch(input, init);
  };

  beforeEach(async () => {
    h = await openAuthorityHarness();
    url = (await h.server.listen(0, '127.0.0.1')).url;
    readToken = await h.token(demo, ['read'], 'app:agent', 'application');
    teachToken = await h.token(demo, ['read', 'teach', 'admin']);
    calls.length = 0;
  });
  afterEach(async () => {
    await h.close();
  });

  async function teach(
    entry: string,
    address: string,
  ): Promise<{ definitionVersion: number; versionId: string }> {
    const res = await request(h.server.app)
      .post('/authority/v1/lessons')
      .set('Authorization', `Bearer ${teachToken}`)
      .send(customerLesson(entry, address));
    expect(res.status).toBe(200);
    return res.body as { definitionVersion: number; versionId: string };
  }

  it('resolves the same active definition and descriptors as the authority holds (§12.1)', async () => {
    await teach('northgate', 'billing@origin.example');
    const remote = await createRemoteDefinitionSource({ url, token: readToken, fetch: countingFetch });
    expect(remote.tenant).toBe('demo');
    expect(remote.descriptors()).toEqual(h.authority.descriptors());
    const [mine, theirs] = [await remote.active(demo), await h.authority.active(demo)];
    expect(mine.definitionVersion).toBe(theirs.definitionVersion);
    expect(mine.definition.versionId).toBe(theirs.definition.versionId);
    expect([...mine.definition.collections.get('customers')!.entries()]).toEqual([
      ...theirs.definition.collections.get('customers')!.entries(),
    ]);
  });

  it('sees a lesson taught meanwhile on the next resolution once the head is stale, with no restart (§12.1)', async () => {
    await teach('northgate', 'billing@origin.example');
    const remote = await createRemoteDefinitionSource({ url, token: readToken, activeTtlMs: 0 });
    expect((await remote.active(demo)).definitionVersion).toBe(1);
    const v2 = await teach('gulftrade', 'ops@gulf.example');
    const next = await remote.active(demo);
    expect(next.definitionVersion).toBe(2);
    expect(next.definition.versionId).toBe(v2.versionId);
    expect([...next.definition.collections.get('customers')!.keys()].sort()).toEqual([
      'gulftrade',
      'northgate',
    ]);
  });

  it('reuses the head within its time to live, and fetches an immutable version only once (§10.3)', async () => {
    const v1 = await teach('northgate', 'billing@origin.example');
    const remote = await createRemoteDefinitionSource({
      url,
      token: readToken,
      activeTtlMs: 3_600_000,
      fetch: countingFetch,
    });
    await remote.active(demo);
    await teach('gulftrade', 'ops@gulf.example');
    expect((await remote.active(demo)).definitionVersion).toBe(1); // within the TTL: the head is not asked again
    calls.length = 0;
    await remote.load(demo, v1.versionId);
    await remote.load(demo, v1.versionId);
    expect(calls).toEqual([]); // v1 came with the first active() and is immutable
  });

  it('follows the authority’s head by long-poll: a new activation reaches it with no time to live passing (issue 15)', async () => {
    const v1 = await teach('northgate', 'billing@origin.example');
    const announced: string[] = [];
    const remote = await createRemoteDefinitionSource({
      url,
      token: readToken,
      activeTtlMs: 3_600_000, // an hour: only the follow can bring the next version
      follow: true,
      onActivated: (d) => announced.push(d.versionId),
    });
    try {
      await expect.poll(() => remote.following(), { timeout: 10_000 }).toBe(true);
      expect((await remote.active(demo)).definition.versionId).toBe(v1.versionId);
      const v2 = await teach('gulftrade', 'ops@gulf.example');
      await expect.poll(() => announced, { timeout: 10_000 }).toContain(v2.versionId);
      const active = await remote.active(demo);
      expect(active.definitionVersion).toBe(v2.definitionVersion);
      expect(active.definition.versionId).toBe(v2.versionId);
    } finally {
      remote.close();
    }
    expect(remote.following()).toBe(false);
  });

  it('answers GET /head?after= at once when the head differs, and refuses a malformed after (issue 15)', async () => {
    const v1 = await teach('northgate', 'billing@origin.example');
    const now = await request(h.server.app)
      .get(`/authority/v1/head?after=${v1.definitionVersion - 1}`)
      .set('Authorization', `Bearer ${readToken}`);
    expect(now.status).toBe(200);
    expect(now.body).toEqual({ definitionVersion: v1.definitionVersion, versionId: v1.versionId });
    const bad = await request(h.server.app)
      .get('/authority/v1/head?after=soon')
      .set('Authorization', `Bearer ${readToken}`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('?after=');
  });

  it('loads an older version by id for a task pinned to it; a tombstoned one fails with the authority’s code (§10.3, §14)', async () => {
    const v1 = await teach('northgate', 'private.person@origin.example');
    await teach('gulftrade', 'ops@gulf.example');
    const remote = await createRemoteDefinitionSource({ url, token: readToken, maxCachedVersions: 1 });
    expect([...(await remote.load(demo, v1.versionId)).collections.get('customers')!.keys()]).toEqual([
      'northgate',
    ]);
    const erased = await request(h.server.app)
      .post('/authority/v1/erase')
      .set('Authorization', `Bearer ${teachToken}`)
      .send({ identifier: 'private.person@origin.example', taughtBy: 'dana@warehouse.example' });
    expect(erased.status).toBe(200);
    await remote.active(demo); // evicts v1 from a one-entry cache
    const err = await remote.load(demo, v1.versionId).catch((e: unknown) => e);
    expect(isDomainError(err, 'DEFINITION_VERSION_TOMBSTONED')).toBe(true);
    const unknown = await remote.load(demo, `sha256:${'1'.repeat(64)}`).catch((e: unknown) => e);
    expect(isDomainError(unknown, 'DEFINITION_VERSION_NOT_FOUND')).toBe(true);
  });

  it('shows a teacher by handle, asks again after its short time to live, and forgets an erased one (§13.4, §14)', async () => {
    await teach('northgate', 'billing@origin.example');
    const dana = await createSqliteDefinitionStore(h.db).personId(demo, 'dana@warehouse.example');
    const remote = await createRemoteDefinitionSource({
      url,
      token: readToken,
      fetch: countingFetch,
      personTtlMs: 3_600_000,
    });
    calls.length = 0;
    expect(await remote.personHandle(demo, dana)).toBe('dana@warehouse.example');
    expect(await remote.personHandle(demo, dana)).toBe('dana@warehouse.example');
    expect(calls.filter((c) => c.endsWith('/people'))).toHaveLength(1); // reused within its TTL
    await expect(remote.personHandle(tenantId('other'), dana)).rejects.toSatisfy(isDomainError);

    await request(h.server.app)
      .post('/authority/v1/erase')
      .set('Authorization', `Bearer ${teachToken}`)
      // dana's token erases her own handle: a person's token writes only as that person (§13.2).
      .send({ identifier: 'dana@warehouse.example', taughtBy: 'dana@warehouse.example' })
      .expect(200);
    const fresh = await createRemoteDefinitionSource({ url, token: readToken, personTtlMs: 0 });
    expect(await fresh.personHandle(demo, dana)).toBeNull();
  });

  it('answers only for its token’s tenant (§13.2)', async () => {
    const remote = await createRemoteDefinitionSource({ url, token: readToken });
    const err = await remote.active(tenantId('acme')).catch((e: unknown) => e);
    expect(isDomainError(err, 'TENANT_UNKNOWN')).toBe(true);
  });

  it('refuses to start with a token that cannot read, or a wrong one', async () => {
    const teachOnly = await h.token(demo, ['teach']);
    await expect(createRemoteDefinitionSource({ url, token: teachOnly })).rejects.toThrow(/read/);
    await expect(createRemoteDefinitionSource({ url, token: 'lt_wrong' })).rejects.toThrow(/401/);
  });

  it('keeps "which rules were in force for task X" one call on the agent, asking the authority for the version (§13.4)', async () => {
    const v1 = await teach('northgate', 'billing@origin.example');
    const remote = await createRemoteDefinitionSource({ url, token: readToken });
    // The agent's own database holds the task (here: the harness's, standing in for the agent's).
    await h.insertPinnedTask(demo, 'task-7', { definitionVersion: 1, versionId: v1.versionId });
    const agentApp = express();
    agentApp.use(
      '/authority/v1',
      createAgentSideRouter({
        verifier: h.tokens,
        taskPins: createSqliteTaskPins(h.db),
        rulesInForce: remote.rulesInForce,
      }),
    );
    const res = await request(agentApp)
      .get('/authority/v1/rules-in-force?taskId=task-7')
      .set('Authorization', `Bearer ${readToken}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      taskId: 'task-7',
      versionId: v1.versionId,
      rules: [{ entry: 'northgate', taughtBy: 'dana@warehouse.example' }],
    });
    expect(
      (await request(agentApp).get('/authority/v1/history').set('Authorization', `Bearer ${readToken}`))
        .status,
    ).toBe(404);
  });
});
