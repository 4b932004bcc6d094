// Invariant: the authority API (§12.1) absorbs, versions, rolls back, reverts, erases and answers "which rules were in force" over HTTP, with bearer tokens and roles (§13.2), and every answer is JSON.
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tenantId } from '../../src/domain/tenant.ts';
import {
  createMatcherCache,
  createTriageService,
  type TriageService,
} from '../../src/domain/triage/index.ts';
import { createLearnables } from '../../src/domain/learnables/index.ts';
import { messageFromFields } from '../../src/ingest/mail/from-fields.ts';
import { SqliteCorpusStore } from '../../src/store/sqlite-corpus-store.ts';
import { createSqliteDefinitionStore } from '../../src/store/sqlite-definition-store.ts';
import { customerLesson, openAuthorityHarness, type AuthorityHarness } from './authority-api-harness.ts';

const demo = tenantId('demo');
const API = '/authority/v1';

describe('authority API', () => {
  let h: AuthorityHarness;
  let admin: string;
  let teacher: string;
  let reader: string;
  beforeEach(async () => {
    h = await openAuthorityHarness();
    admin = await h.token(demo, ['admin'], 'ops@warehouse.example');
    teacher = await h.token(demo, ['read', 'teach']);
    reader = await h.token(demo, ['read'], 'app:dashboard', 'application');
  });
  afterEach(async () => {
    await h.close();
  });

  const post = (path: string, token: string, body: unknown) =>
    request(h.server.app)
      .post(API + path)
      .set('Authorization', `Bearer ${token}`)
      .send(body as object);
  const get = (path: string, token: string) =>
    request(h.server.app)
      .get(API + path)
      .set('Authorization', `Bearer ${token}`);

  it('absorbs a lesson and returns the LessonResult phrased by the learnable (§10.4)', async () => {
    const res = await post('/lessons', teacher, customerLesson('northgate', 'billing@origin.example'));
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/json');
    expect(res.body).toMatchObject({ learned: true, definitionVersion: 1 });
    expect(res.body.describes).toContain('billing@origin\\.example');
    expect(res.body.versionId).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('reports a duplicate lesson as learned: false with no new version, not an error (§10.2)', async () => {
    const first = await post('/lessons', teacher, customerLesson('northgate', 'billing@origin.example'));
    const again = await post('/lessons', teacher, customerLesson('northgate', 'billing@origin.example'));
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ learned: false, definitionVersion: first.body.definitionVersion });
    expect((await get('/history', reader)).body.history).toHaveLength(1);
  });

  it('answers a refusal with 422 carrying the learnable’s own reason (§10.1)', async () => {
    const res = await post('/lessons', teacher, {
      ...customerLesson('northgate', 'x'),
      value: { pattern: 'billing@origin\\.example(', where: 'from' },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('LESSON_REFUSED');
    expect(res.body.error.message).toMatch(/missing \)/);
  });

  it('answers a malformed lesson with 400 naming each bad field', async () => {
    const res = await post('/lessons', teacher, { collection: 'customers', value: 'billing@origin.example' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('LESSON_MALFORMED');
    const named = JSON.stringify(res.body.error);
    for (const field of ['entry', 'value', 'taughtBy']) expect(named).toContain(field);
  });

  it('answers an unknown collection with 422 listing the declared ones (§9)', async () => {
    const res = await post('/lessons', teacher, {
      ...customerLesson('northgate', 'a@b.example'),
      collection: 'clients',
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('COLLECTION_UNKNOWN');
    for (const c of ['customers', 'kinds', 'mappings']) expect(JSON.stringify(res.body.error)).toContain(c);
  });

  it('answers a body that is not JSON with 400 in the error shape', async () => {
    const res = await request(h.server.app)
      .post(`${API}/lessons`)
      .set('Authorization', `Bearer ${teacher}`)
      .set('Content-Type', 'application/json')
      .send('{"collection": ');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'REQUEST_MALFORMED' });
    expect(typeof res.body.error.message).toBe('string');
  });

  it('records who taught what and why in the history (§10.3, §13.4)', async () => {
    await post('/lessons', teacher, customerLesson('northgate', 'billing@origin.example'));
    const res = await get('/history', reader);
    expect(res.status).toBe(200);
    expect(res.body.history[0]).toMatchObject({
      definitionVersion: 1,
      action: 'teach',
      taughtBy: 'dana@warehouse.example',
      reason: 'billing@origin.example writes for northgate',
    });
  });

  it('serves the active definition and any version by id; an unknown id is 404 (§10.3)', async () => {
    const v1 = (await post('/lessons', teacher, customerLesson('northgate', 'billing@origin.example'))).body;
    const v2 = (await post('/lessons', teacher, customerLesson('gulftrade', 'ops@gulf.example'))).body;
    const active = await get('/definition', reader);
    expect(active.body).toMatchObject({ definitionVersion: 2, versionId: v2.versionId });
    expect(Object.keys(active.body.collections.customers).sort()).toEqual(['gulftrade', 'northgate']);
    const head = await get('/head', reader);
    expect(head.body).toEqual({ definitionVersion: 2, versionId: v2.versionId });
    const old = await get(`/versions/${encodeURIComponent(v1.versionId)}`, reader);
    expect(old.status).toBe(200);
    expect(Object.keys(old.body.collections.customers)).toEqual(['northgate']);
    const unknown = await get(`/versions/sha256:${'0'.repeat(64)}`, reader);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('DEFINITION_VERSION_NOT_FOUND');
  });

  it('rolls back as a new activation pointing at the older version, admin only (§10.3)', async () => {
    const v1 = (await post('/lessons', teacher, customerLesson('northgate', 'billing@origin.example'))).body;
    await post('/lessons', teacher, customerLesson('gulftrade', 'ops@gulf.example'));
    // The admin writes as itself: a person's token may not write as another person (§13.2).
    const body = { to: 1, taughtBy: 'ops@warehouse.example', reason: 'the gulftrade lesson was wrong' };
    expect((await post('/rollback', teacher, body)).status).toBe(403);
    const res = await post('/rollback', admin, body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ definitionVersion: 3, versionId: v1.versionId });
    expect((await get('/history', reader)).body.history[0]).toMatchObject({
      definitionVersion: 3,
      action: 'rollback',
    });
  });

  it('reverts exactly one activation, keeping the later ones', async () => {
    await post('/lessons', teacher, customerLesson('northgate', 'billing@origin.example'));
    await post('/lessons', teacher, customerLesson('gulftrade', 'ops@gulf.example'));
    const res = await post('/revert', admin, {
      activation: 1,
      taughtBy: 'ops@warehouse.example',
      reason: 'a forwarder',
    });
    expect(res.status).toBe(200);
    const active = (await get('/definition', reader)).body;
    expect(Object.keys(active.collections.customers)).toEqual(['gulftrade']);
    const missing = await post('/revert', admin, { activation: 99, taughtBy: 'ops@warehouse.example' });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('ACTIVATION_NOT_FOUND');
  });

  it('names each bad field of a rollback, revert or erase body', async () => {
    const res = await post('/rollback', admin, { to: 'one' });
    expect(res.status).toBe(400);
    expect(res.body.error.details.fields).toEqual(['to', 'taughtBy']);
    expect((await post('/erase', admin, {})).body.error.details.fields).toEqual(['identifier', 'taughtBy']);
  });

  it('erases an identifier: the historic version becomes 410 Gone (§14)', async () => {
    const v1 = (await post('/lessons', teacher, customerLesson('northgate', 'dana.private@origin.example')))
      .body;
    await post('/lessons', teacher, customerLesson('gulftrade', 'ops@gulf.example'));
    const res = await post('/erase', admin, {
      identifier: 'dana.private@origin.example',
      taughtBy: 'ops@warehouse.example',
      reason: 'erasure request',
    });
    expect(res.status).toBe(200);
    expect(res.body.tombstonedVersions).toContain(v1.versionId);
    const gone = await get(`/versions/${encodeURIComponent(v1.versionId)}`, reader);
    expect(gone.status).toBe(410);
    expect(gone.body.error.code).toBe('DEFINITION_VERSION_TOMBSTONED');
    expect(JSON.stringify((await get('/definition', reader)).body)).not.toContain('dana.private');
  });

  it('tells who a person id in provenance is, and forgets an erased one (§13.4, §14)', async () => {
    await post('/lessons', teacher, customerLesson('northgate', 'billing@origin.example'));
    const store = createSqliteDefinitionStore(h.db);
    const dana = await store.personId(demo, 'dana@warehouse.example');
    const res = await get(`/people?ids=${encodeURIComponent(dana)},p_unknown`, reader);
    expect(res.status).toBe(200);
    expect(res.body.people).toEqual([
      { id: dana, handle: 'dana@warehouse.example' },
      { id: 'p_unknown', handle: null },
    ]);
    // Another tenant's reader cannot resolve this tenant's people.
    const other = await h.token(tenantId('other'), ['read']);
    expect((await get(`/people?ids=${encodeURIComponent(dana)}`, other)).body.people).toEqual([
      { id: dana, handle: null },
    ]);
    await post('/erase', admin, { identifier: 'dana@warehouse.example', taughtBy: 'ops@warehouse.example' });
    expect((await get(`/people?ids=${encodeURIComponent(dana)}`, reader)).body.people).toEqual([
      { id: dana, handle: null },
    ]);
    const none = await get('/people', reader);
    expect(none.status).toBe(400);
    expect(none.body.error.message).toContain('?ids=');
  });

  it('answers which rules were in force for a task and who put them there, from stored state (§13.4)', async () => {
    const v1 = (await post('/lessons', teacher, customerLesson('northgate', 'billing@origin.example'))).body;
    await h.insertPinnedTask(demo, 'task-1', { definitionVersion: 1, versionId: v1.versionId });
    await post('/lessons', teacher, customerLesson('gulftrade', 'ops@gulf.example'));

    const byTask = await get('/rules-in-force?taskId=task-1', reader);
    expect(byTask.status).toBe(200);
    expect(byTask.body).toMatchObject({ taskId: 'task-1', definitionVersion: 1, versionId: v1.versionId });
    expect(byTask.body.rules).toEqual([
      expect.objectContaining({
        collection: 'customers',
        entry: 'northgate',
        activation: 1,
        taughtBy: 'dana@warehouse.example',
      }),
    ]);
    expect(byTask.body.rules[0].describes).toContain('billing@origin\\.example');

    const byVersion = await get(`/rules-in-force?versionId=${encodeURIComponent(v1.versionId)}`, reader);
    expect(byVersion.body.rules).toEqual(byTask.body.rules);
    expect((await get('/rules-in-force?taskId=nope', reader)).status).toBe(404);
    expect((await get('/rules-in-force', reader)).status).toBe(400);
  });

  it('lists the descriptors and says who the token belongs to', async () => {
    const d = await get('/descriptors', reader);
    expect(d.body.learnables.map((l: { collection: string }) => l.collection)).toEqual([
      'customers',
      'kinds',
      'mappings',
    ]);
    expect((await get('/whoami', reader)).body).toEqual({
      tenant: 'demo',
      principal: 'app:dashboard',
      kind: 'application',
      roles: ['read'],
    });
  });

  it('answers 401 without a token or with a wrong or revoked one (§13.2)', async () => {
    expect((await request(h.server.app).get(`${API}/history`)).status).toBe(401);
    const wrong = await get('/history', 'lt_not-a-real-token');
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('UNAUTHENTICATED');
    const created = await h.tokens.create({
      tenant: demo,
      principal: 'gone',
      kind: 'person',
      roles: ['read'],
    });
    await h.tokens.revoke(demo, created.record.id);
    expect((await get('/history', created.token)).status).toBe(401);
  });

  it('answers 403 when the token lacks the role (§13.2)', async () => {
    const res = await post('/lessons', reader, customerLesson('northgate', 'billing@origin.example'));
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    expect((await post('/erase', teacher, { identifier: 'abc', taughtBy: 'x' })).status).toBe(403);
    expect((await post('/revert', teacher, { activation: 1, taughtBy: 'x' })).status).toBe(403);
    expect((await get('/history', await h.token(demo, ['teach']))).status).toBe(403);
  });

  it('answers 404 in the error shape for a path it does not serve', async () => {
    const res = await get('/nothing-here', reader);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });

  it('says plainly when no dry-run is wired, rather than pretending', async () => {
    const res = await post(
      '/lessons:dry-run',
      teacher,
      customerLesson('northgate', 'billing@origin.example'),
    );
    expect(res.status).toBe(404);
    expect(res.body.error.message).toMatch(/dry-run|dry runs/);
  });

  it('turns a fault into a 500 with no internals and logs the cause', async () => {
    await h.db.destroy();
    const res = await get('/history', reader);
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('INTERNAL');
    expect(JSON.stringify(res.body)).not.toMatch(/kysely|sqlite|destroy|driver/i);
    expect(h.faults.length).toBeGreaterThan(0);
    h = { ...h, close: () => h.server.close() };
  });
});

describe('authority API dry run (§13.1)', () => {
  let h: AuthorityHarness;
  let triage: TriageService;
  beforeEach(async () => {
    // The corpus lives in the same database as the definitions; the dry run is the triage service's.
    h = await openAuthorityHarness({ dryRun: (t, _p, lesson) => triage.dryRun(t, lesson) });
    triage = createTriageService({
      definitions: h.authority,
      corpus: new SqliteCorpusStore(h.db),
      learnables: createLearnables(),
      settings: { identificationMargin: 0.5 },
      matcherCache: createMatcherCache({ maxVersions: 4 }),
    });
  });
  afterEach(async () => {
    await h.close();
  });

  it('evaluates a lesson against the messages already seen, and teaches nothing', async () => {
    const teacher = await h.token(demo, ['read', 'teach']);
    for (const [i, from] of [
      'billing@origin.example',
      'billing@origin.example',
      'someone@else.example',
    ].entries()) {
      await triage.triage(
        demo,
        messageFromFields({
          from,
          subject: `Pre-alert ${i}`,
          body: 'Manifest attached.',
          messageId: `m${i}@x.example`,
        }),
      );
    }
    const res = await request(h.server.app)
      .post(`${API}/lessons:dry-run`)
      .set('Authorization', `Bearer ${teacher}`)
      .send(customerLesson('northgate', 'billing@origin.example'));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      collection: 'customers',
      entry: 'northgate',
      learned: true,
      total: 3,
      matches: 2,
      newlySettled: 2,
    });
    expect((await h.authority.history(demo)).length).toBe(0);
  });
});
