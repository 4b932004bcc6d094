// Invariant: no endpoint of the authority API lets one tenant read or change another tenant's knowledge, versions or tasks; the tenant is always the token's (§13.2).
import { createSqliteDefinitionStore } from '../../src/store/sqlite-definition-store.ts';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Lesson, Principal } from '../../src/domain/authority/index.ts';
import { tenantId, type TenantId } from '../../src/domain/tenant.ts';
import { createAuthorityRouter } from '../../src/http/authority-api.ts';
import { customerLesson, openAuthorityHarness, type AuthorityHarness } from './authority-api-harness.ts';
import { SqliteCorpusStore } from '../../src/store/sqlite-corpus-store.ts';
import { mail } from '../support/definitions.ts';

const API = '/authority/v1';
const A = tenantId('demo');
const B = tenantId('acme');

interface TenantFixture {
  readonly tenant: TenantId;
  readonly token: string;
  /** Strings only this tenant's knowledge holds. */
  readonly secrets: readonly string[];
  readonly versionIds: readonly string[];
  readonly taskId: string;
  /** The stable person id of the victim's teacher, whose handle is one of its secrets. */
  readonly personId: string;
}

interface Case {
  readonly route: string; // "METHOD /path" as the router declares it
  readonly method: 'get' | 'post';
  readonly path: (victim: TenantFixture) => string;
  readonly body?: (victim: TenantFixture) => Record<string, unknown>;
  /** What the attacker must get; `own` = a 2xx about its own tenant only. */
  readonly expect: 404 | 'own';
}

/** Every route, aimed at the victim's versions, tasks and identifiers, sent with the attacker's admin token. */
const CASES: readonly Case[] = [
  { route: 'GET /whoami', method: 'get', path: () => '/whoami?tenant=demo', expect: 'own' },
  { route: 'GET /descriptors', method: 'get', path: () => '/descriptors', expect: 'own' },
  { route: 'GET /history', method: 'get', path: (v) => `/history?tenant=${v.tenant}`, expect: 'own' },
  { route: 'GET /definition', method: 'get', path: (v) => `/definition?tenant=${v.tenant}`, expect: 'own' },
  { route: 'GET /head', method: 'get', path: (v) => `/head?tenant=${v.tenant}`, expect: 'own' },
  {
    route: 'GET /versions/:versionId',
    method: 'get',
    path: (v) => `/versions/${encodeURIComponent(v.versionIds[0]!)}`,
    expect: 404,
  },
  {
    route: 'GET /versions/:versionId',
    method: 'get',
    path: (v) => `/versions/${encodeURIComponent(v.versionIds[1]!)}`,
    expect: 404,
  },
  {
    route: 'GET /rules-in-force',
    method: 'get',
    path: (v) => `/rules-in-force?versionId=${encodeURIComponent(v.versionIds[0]!)}`,
    expect: 404,
  },
  {
    route: 'GET /rules-in-force',
    method: 'get',
    path: (v) => `/rules-in-force?taskId=${v.taskId}`,
    expect: 404,
  },
  {
    route: 'GET /people',
    method: 'get',
    path: (v) => `/people?ids=${encodeURIComponent(v.personId)}`,
    expect: 'own',
  },
  {
    route: 'POST /lessons',
    method: 'post',
    path: () => '/lessons',
    body: (v) => ({ ...customerLesson('northgate', `intruder@${v.tenant}.example`), tenant: v.tenant }),
    expect: 'own',
  },
  {
    route: 'POST /lessons\\:dry-run',
    method: 'post',
    path: () => '/lessons:dry-run',
    body: (v) => ({ ...customerLesson('northgate', v.secrets[0]!), tenant: v.tenant }),
    expect: 'own',
  },
  {
    route: 'GET /senders',
    method: 'get',
    path: (v) => `/senders?collection=customers&tenant=${v.tenant}`,
    expect: 'own',
  },
  {
    route: 'POST /rollback',
    method: 'post',
    path: () => '/rollback',
    body: (v) => ({ to: 1, taughtBy: 'mallory@x.example', tenant: v.tenant }),
    expect: 'own',
  },
  {
    route: 'POST /revert',
    method: 'post',
    path: () => '/revert',
    body: (v) => ({ activation: 2, taughtBy: 'mallory@x.example', tenant: v.tenant }),
    expect: 'own',
  },
  {
    route: 'POST /erase',
    method: 'post',
    path: () => '/erase',
    body: (v) => ({ identifier: v.secrets[0]!, taughtBy: 'mallory@x.example', tenant: v.tenant }),
    expect: 'own',
  },
];

describe('cross-tenant matrix', () => {
  let h: AuthorityHarness;
  const dryRuns: { tenant: TenantId; principal: Principal; lesson: Lesson }[] = [];
  const fixtures = new Map<TenantId, TenantFixture>();

  async function seed(tenant: TenantId, secrets: [string, string]): Promise<TenantFixture> {
    // An application writing for the people it names (a person's token writes only as itself, §13.2).
    const token = await h.token(tenant, ['admin'], `app:ops-${tenant}`, 'application');
    const teach = (body: Record<string, unknown>) =>
      request(h.server.app).post(`${API}/lessons`).set('Authorization', `Bearer ${token}`).send(body);
    // The first lesson is taught by the owner of the first secret: its handle is personal data (§14).
    const v1 = (await teach(customerLesson('northgate', secrets[0], { taughtBy: secrets[0] }))).body
      .versionId as string;
    const v2 = (await teach(customerLesson('gulftrade', secrets[1]))).body.versionId as string;
    const taskId = `task-of-${tenant}`;
    await h.insertPinnedTask(tenant, taskId, { definitionVersion: 1, versionId: v1 });
    const personId = await createSqliteDefinitionStore(h.db).personId(tenant, secrets[0]);
    // Mail from the first secret's address, read as northgate: the tenant's senders view lists it.
    const message = mail({ from: { address: secrets[0], name: '' } });
    await new SqliteCorpusStore(h.db).remember(tenant, {
      key: `mail-of-${tenant}`,
      message,
      seenAt: '2026-10-01T09:00:00.000Z',
      taskId: null,
      lastReading: { versionId: v1, definitionVersion: 1, decided: new Map([['customers', 'northgate']]) },
    });
    return { tenant, token, secrets, versionIds: [v1, v2], taskId, personId };
  }

  /** Everything the tenant can see of itself, for before/after comparison. */
  async function snapshot(f: TenantFixture): Promise<string> {
    const get = async (path: string) =>
      (
        await request(h.server.app)
          .get(API + path)
          .set('Authorization', `Bearer ${f.token}`)
      ).body as unknown;
    return JSON.stringify({
      history: await get('/history'),
      definition: await get('/definition'),
      versions: await Promise.all(f.versionIds.map((v) => get(`/versions/${encodeURIComponent(v)}`))),
      rules: await get(`/rules-in-force?taskId=${f.taskId}`),
      senders: await get('/senders'),
    });
  }

  beforeAll(async () => {
    h = await openAuthorityHarness({
      dryRun: (tenant, principal, lesson) => {
        dryRuns.push({ tenant, principal, lesson });
        return Promise.resolve({ tenant, matched: 0 });
      },
      // Issue 38: the senders view over the real corpus store, each tenant's own mail in it.
      senders: async (tenant, collection, limit) => ({
        collection: collection ?? 'customers',
        senders: await new SqliteCorpusStore(h.db).senders(tenant, collection ?? 'customers', limit),
      }),
    });
    fixtures.set(A, await seed(A, ['secret-a@victim-a.example', 'second-a@victim-a.example']));
    fixtures.set(B, await seed(B, ['secret-b@victim-b.example', 'second-b@victim-b.example']));
  });
  afterAll(async () => {
    await h.close();
  });

  it('covers every route the authority API serves', () => {
    const router = createAuthorityRouter({
      authority: {} as never,
      verifier: {} as never,
      taskPins: {} as never,
    });
    const routes = (router.stack as { route?: { path: string; methods: Record<string, boolean> } }[])
      .filter((l) => l.route !== undefined)
      .flatMap((l) => Object.keys(l.route!.methods).map((m) => `${m.toUpperCase()} ${l.route!.path}`));
    expect(new Set(CASES.map((c) => c.route))).toEqual(new Set(routes));
  });

  describe.each([
    [A, B],
    [B, A],
  ])('victim %s, attacker %s', (victimId, attackerId) => {
    it('neither reads nor changes anything of the victim through any route (§13.2)', async () => {
      const victim = fixtures.get(victimId)!;
      const attacker = fixtures.get(attackerId)!;
      const before = await snapshot(victim);

      for (const c of CASES) {
        const agent = request(h.server.app);
        const url = API + c.path(victim);
        const req = (c.method === 'get' ? agent.get(url) : agent.post(url)).set(
          'Authorization',
          `Bearer ${attacker.token}`,
        );
        const res = c.body === undefined ? await req : await req.send(c.body(victim));
        const what = `${c.method.toUpperCase()} ${c.path(victim)} → ${res.status} ${JSON.stringify(res.body)}`;
        if (res.status >= 500) console.error(what, h.faults.at(-1));
        if (c.expect === 404) {
          expect(res.status, what).toBe(404);
        } else {
          expect(res.status, what).toBeLessThan(500);
          expect(res.status, what).not.toBe(401);
          expect(res.status, what).not.toBe(403);
        }
        // Nothing of the victim's comes back, other than what the attacker itself sent (a 404 may echo the id asked for).
        const text = JSON.stringify(res.body);
        const sent = decodeURIComponent(c.path(victim)) + JSON.stringify(c.body?.(victim) ?? {});
        const sensitive = [
          ...victim.secrets.map((s) => s.split('@')[0]!),
          ...victim.versionIds.map((v) => v.slice('sha256:'.length)),
          victim.taskId,
        ];
        for (const s of sensitive) if (!sent.includes(s)) expect(text, what).not.toContain(s);
      }

      // The lesson the attacker posted landed in the attacker's tenant, whatever its body said.
      const own = await request(h.server.app)
        .get(`${API}/history`)
        .set('Authorization', `Bearer ${attacker.token}`);
      expect(JSON.stringify(own.body)).toContain(`intruder@${victim.tenant}`);
      // The dry run ran against the attacker's tenant.
      expect(dryRuns.at(-1)!.tenant).toBe(attacker.tenant);

      expect(await snapshot(victim)).toBe(before);
    });
  });
});
