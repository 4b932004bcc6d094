// Invariant: every change to a tenant's knowledge is a new immutable, content-addressed version with an attributed, undoable history row, on real SQLite (§10, §13.2, §13.4).
import {
  customerLabelFromName,
  createLearnables,
  createMappingsLearnable,
  type Learnable,
} from '../../src/domain/learnables/index.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isDomainError, type DomainError } from '../../src/domain/errors.ts';
import { EMPTY_VERSION_ID } from '../../src/domain/definitions/index.ts';
import { tenantId } from '../../src/domain/tenant.ts';
import { openCore, type Core } from './knowledge-harness.ts';

const DANA = 'dana@warehouse.example';

async function domainError(p: Promise<unknown>): Promise<DomainError> {
  try {
    await p;
  } catch (e) {
    if (isDomainError(e)) return e;
    throw e;
  }
  throw new Error('expected a DomainError, got success');
}

describe('the authority on SQLite', () => {
  let core: Core;
  beforeEach(async () => {
    core = await openCore();
  });
  afterEach(async () => {
    await core.close();
  });

  const teach = (
    entry: string,
    value: Record<string, unknown>,
    extra: { taughtBy?: string; reason?: string } = {},
  ) =>
    core.authority.absorb(core.tenant, core.teacher, {
      collection: 'customers',
      entry,
      // Named, so a lesson for a new customer creates it (issue 12.3: no entry by accident).
      value: { label: customerLabelFromName(entry), ...value },
      taughtBy: extra.taughtBy ?? DANA,
      ...(extra.reason === undefined ? {} : { reason: extra.reason }),
    });

  it('reports learned:false, makes no version and no error for a lesson that adds nothing (§10.2)', async () => {
    const first = await teach('northgate', { pattern: 'billing@origin\\.example', where: 'from' });
    expect(first.learned).toBe(true);
    const again = await teach(
      'northgate',
      { pattern: 'billing@origin\\.example', where: 'from' },
      { taughtBy: 'sam@warehouse.example' },
    );
    expect(again.learned).toBe(false);
    expect(again.definitionVersion).toBe(first.definitionVersion);
    expect(again.versionId).toBe(first.versionId);
    expect(again.describes).toMatch(/billing@origin/);
    expect(await core.authority.history(core.tenant)).toHaveLength(1);
  });

  it('makes each change a new immutable version: content-addressed ids, previousVersionId links, monotonic definitionVersion (§10.3)', async () => {
    const a = await teach(
      'northgate',
      { pattern: 'billing@origin\\.example', where: 'from' },
      { reason: 'their billing desk' },
    );
    const b = await teach('gulftrade', { pattern: 'ops@gulftrade\\.example', where: 'from' });
    const c = await teach('northgate', { pattern: 'NGM-\\d{6}', where: 'subject' });
    expect([a.definitionVersion, b.definitionVersion, c.definitionVersion]).toEqual([1, 2, 3]);
    expect(a.previousVersionId).toBeUndefined();
    expect(b.previousVersionId).toBe(a.versionId);
    expect(c.previousVersionId).toBe(b.versionId);
    expect(new Set([a.versionId, b.versionId, c.versionId]).size).toBe(3);

    // The older version is still loadable and unchanged (a pinned task can finish on it).
    const v1 = await core.authority.load(core.tenant, a.versionId!);
    expect([...v1.collections.get('customers')!.keys()]).toEqual(['northgate']);
    expect(Object.isFrozen(v1.collections.get('customers')!.get('northgate'))).toBe(true);

    const history = await core.authority.history(core.tenant);
    expect(history.map((h) => h.definitionVersion)).toEqual([3, 2, 1]);
    expect(history[2]).toMatchObject({
      action: 'teach',
      taughtBy: DANA,
      reason: 'their billing desk',
      collection: 'customers',
      entry: 'northgate',
    });
    expect(history[2]!.describes).toBe(a.describes);

    // Same content -> same id: taking lesson 2 back out leaves exactly the content of version 1... plus lesson 3,
    // so take both back and the id is version 1's again.
    await core.authority.revert(core.tenant, core.teacher, { activation: 3, taughtBy: DANA });
    const back = await core.authority.revert(core.tenant, core.teacher, { activation: 2, taughtBy: DANA });
    expect(back.definitionVersion).toBe(5);
    expect(back.versionId).toBe(a.versionId);
  });

  it('rolls back by activating the earlier version as a new history row, deleting nothing (§10.3)', async () => {
    const a = await teach('northgate', { pattern: 'billing@origin\\.example', where: 'from' });
    const b = await teach('northgate', { pattern: 'NGM-\\d{6}', where: 'subject' });
    const r = await core.authority.rollback(core.tenant, core.teacher, {
      to: 1,
      taughtBy: 'sam@warehouse.example',
      reason: 'too broad',
    });
    expect(r.definitionVersion).toBe(3);
    expect(r.versionId).toBe(a.versionId); // content-addressed: the same content is the same version
    expect(r.previousVersionId).toBe(b.versionId);
    const active = await core.authority.active(core.tenant);
    expect(active.definitionVersion).toBe(3);
    expect(active.definition.versionId).toBe(a.versionId);
    const history = await core.authority.history(core.tenant);
    expect(history.map((h) => h.action)).toEqual(['rollback', 'teach', 'teach']);
    expect(history[0]).toMatchObject({ taughtBy: 'sam@warehouse.example', reason: 'too broad', target: 1 });
    // The rolled-back version is still there and loadable; rolling forward is just another rollback.
    expect((await core.authority.load(core.tenant, b.versionId!)).versionId).toBe(b.versionId);
    const forward = await core.authority.rollback(core.tenant, core.teacher, { to: 2, taughtBy: DANA });
    expect(forward.versionId).toBe(b.versionId);
    expect(forward.definitionVersion).toBe(4);
    const none = await core.authority.rollback(core.tenant, core.teacher, { to: 0, taughtBy: DANA });
    expect(none.versionId).toBe(EMPTY_VERSION_ID);
    expect((await core.authority.active(core.tenant)).definition.collections.size).toBe(0);
    expect(
      (await domainError(core.authority.rollback(core.tenant, core.teacher, { to: 99, taughtBy: DANA })))
        .code,
    ).toBe('DEFINITION_VERSION_NOT_FOUND');
  });

  it('reverts one lesson taught weeks ago and keeps every lesson after it (the forwarder case, §13.4)', async () => {
    const wrong = await teach(
      'northgate',
      { pattern: 'desk@forwarder\\.example', where: 'from' },
      { reason: 'first pre-alert' },
    );
    await teach('northgate', { pattern: 'billing@origin\\.example', where: 'from' });
    await teach('gulftrade', { pattern: 'desk@forwarder\\.example', where: 'body' });
    await teach('northgate', { pattern: 'NGM-\\d{6}', where: 'subject' });

    const r = await core.authority.revert(core.tenant, core.teacher, {
      activation: wrong.definitionVersion,
      taughtBy: 'sam@warehouse.example',
      reason: 'the forwarder writes for everybody',
    });
    expect(r.definitionVersion).toBe(5);
    expect(r.describes).toMatch(/activation 1/);

    const rules = await core.authority.rulesInForce(core.tenant, r.versionId);
    const northgate = rules
      .filter((x) => x.entry === 'northgate')
      .map((x) => x.describes)
      .join(' | ');
    expect(northgate).not.toMatch(/forwarder/);
    expect(northgate).toMatch(/billing@origin/);
    expect(northgate).toMatch(/NGM-/);
    // A later lesson with the same text on another entry is not touched.
    expect(rules.some((x) => x.entry === 'gulftrade' && /forwarder/.test(x.describes))).toBe(true);

    const [row] = await core.authority.history(core.tenant, { limit: 1 });
    expect(row).toMatchObject({
      action: 'revert',
      target: 1,
      taughtBy: 'sam@warehouse.example',
      reason: 'the forwarder writes for everybody',
    });

    expect(
      (await domainError(core.authority.revert(core.tenant, core.teacher, { activation: 1, taughtBy: DANA })))
        .code,
    ).toBe('NOTHING_TO_REVERT');
    expect(
      (await domainError(core.authority.revert(core.tenant, core.teacher, { activation: 5, taughtBy: DANA })))
        .code,
    ).toBe('NOTHING_TO_REVERT');
    expect(
      (
        await domainError(
          core.authority.revert(core.tenant, core.teacher, { activation: 77, taughtBy: DANA }),
        )
      ).code,
    ).toBe('ACTIVATION_NOT_FOUND');
  });

  it('answers which rules were in force at a version and who put them there, from stored state (§13.4)', async () => {
    const a = await teach('northgate', { pattern: 'billing@origin\\.example', where: 'from' });
    await teach(
      'northgate',
      { pattern: 'NGM-\\d{6}', where: 'subject' },
      { taughtBy: 'sam@warehouse.example' },
    );
    const atA = await core.authority.rulesInForce(core.tenant, a.versionId!);
    expect(atA).toHaveLength(1);
    expect(atA[0]).toMatchObject({
      collection: 'customers',
      entry: 'northgate',
      activation: 1,
      taughtBy: DANA,
    });
    const now = await core.authority.rulesInForce(
      core.tenant,
      (await core.authority.active(core.tenant)).definition.versionId,
    );
    expect(now.map((x) => [x.activation, x.taughtBy])).toEqual(
      expect.arrayContaining([
        [1, DANA],
        [2, 'sam@warehouse.example'],
      ]),
    );
    // taughtBy is stored as a stable internal id, not the address (§14).
    const stored = await core.store.history(core.tenant);
    expect(stored.every((s) => s.taughtBy.startsWith('person-'))).toBe(true);
  });

  describe('refusals', () => {
    it('lists the declared collections for an unknown collection (§9)', async () => {
      const e = await domainError(
        core.authority.absorb(core.tenant, core.teacher, {
          collection: 'suppliers',
          entry: 'x',
          value: {},
          taughtBy: DANA,
        }),
      );
      expect(e.code).toBe('COLLECTION_UNKNOWN');
      expect(e.message).toMatch(/"customers", "kinds", "mappings"/);
      expect(e.details?.['declared']).toEqual(['customers', 'kinds', 'mappings']);
    });

    it('names each bad field of a malformed lesson (§9)', async () => {
      const e = await domainError(
        core.authority.absorb(core.tenant, core.teacher, {
          collection: 'customers',
          entry: '',
          value: 'x',
          taughtBy: '',
        } as never),
      );
      expect(e.code).toBe('LESSON_MALFORMED');
      expect(e.details?.['fields']).toEqual(['entry', 'value', 'taughtBy']);
      expect(e.message).toMatch(/taughtBy is missing/);
      expect(e.message).toMatch(/value must be an object/);
    });

    it('refuses a taughtBy that names a service account (§9)', async () => {
      const svc = await openCore({ servicePrincipals: ['svc-importer'] });
      try {
        const e = await domainError(
          svc.authority.absorb(svc.tenant, svc.teacher, {
            collection: 'customers',
            entry: 'northgate',
            value: { pattern: 'a@b\\.example' },
            taughtBy: 'SVC-importer',
          }),
        );
        expect(e.code).toBe('TAUGHT_BY_NOT_A_PERSON');
        const app = {
          id: 'app:preshipment',
          kind: 'application' as const,
          tenant: svc.tenant,
          roles: ['teach' as const],
        };
        const e2 = await domainError(
          svc.authority.absorb(svc.tenant, app, {
            collection: 'customers',
            entry: 'northgate',
            value: { pattern: 'a@b\\.example' },
            taughtBy: 'app:preshipment',
          }),
        );
        expect(e2.code).toBe('TAUGHT_BY_NOT_A_PERSON');
      } finally {
        await svc.close();
      }
    });

    it("carries the learnable's own reason unchanged (§10.1)", async () => {
      const value = { pattern: 'billing@origin\\.example(', where: 'from' };
      const expected = createLearnables()[0]!.absorb('northgate', undefined, value, {
        activation: 1,
        taughtBy: 'x',
        at: 'y',
      });
      expect(expected.outcome).toBe('refused');
      const e = await domainError(teach('northgate', value));
      expect(e.code).toBe('LESSON_REFUSED');
      expect(e.message).toBe((expected as { reason: string }).reason);
      expect(await core.authority.history(core.tenant)).toHaveLength(0);
    });

    it('lists the valid entries when a collection does not create entries', async () => {
      const mappings = createMappingsLearnable();
      const closed: Learnable = Object.assign(Object.create(mappings) as Learnable, {
        createsEntries: false,
      });
      const strict = await openCore({ learnables: [closed] });
      try {
        await strict.authority.import(strict.tenant, strict.teacher, {
          directory: { collections: { mappings: { waybill: [{ column: 'AWB No' }] } } },
          taughtBy: DANA,
        });
        const e = await domainError(
          strict.authority.absorb(strict.tenant, strict.teacher, {
            collection: 'mappings',
            entry: 'weight',
            value: { column: 'Kg' },
            taughtBy: DANA,
          }),
        );
        expect(e.code).toBe('ENTRY_UNKNOWN');
        expect(e.message).toMatch(/"waybill"/);
      } finally {
        await strict.close();
      }
    });

    it('scopes every write to the principal’s one tenant (§13.2)', async () => {
      const other = { ...core.teacher, tenant: tenantId('other') };
      const e = await domainError(
        core.authority.absorb(core.tenant, other, {
          collection: 'customers',
          entry: 'x',
          value: { pattern: 'a@b\\.example' },
          taughtBy: DANA,
        }),
      );
      expect(e.code).toBe('FORBIDDEN');
      const reader = { ...core.teacher, roles: ['read' as const] };
      expect(
        (
          await domainError(
            core.authority.absorb(core.tenant, reader, {
              collection: 'customers',
              entry: 'x',
              value: {},
              taughtBy: DANA,
            }),
          )
        ).code,
      ).toBe('FORBIDDEN');
    });

    it('gives DEFINITION_VERSION_NOT_FOUND for an id the tenant never had', async () => {
      await teach('northgate', { pattern: 'billing@origin\\.example' });
      const e = await domainError(core.authority.load(core.tenant, `sha256:${'0'.repeat(64)}`));
      expect(e.code).toBe('DEFINITION_VERSION_NOT_FOUND');
      expect((await domainError(core.authority.load(core.tenant, 'v12'))).code).toBe(
        'DEFINITION_VERSION_NOT_FOUND',
      );
      // A version of another tenant is not this tenant's.
      const v = (await core.authority.active(core.tenant)).definition.versionId;
      expect((await domainError(core.authority.load(tenantId('other'), v))).code).toBe(
        'DEFINITION_VERSION_NOT_FOUND',
      );
    });
  });

  it('imports a directory lesson by lesson through the learnables as one activation, idempotently', async () => {
    const directory = {
      collections: {
        customers: {
          northgate: [
            { pattern: 'billing@origin\\.example', where: 'from', label: 'Northgate Motors Ltd' },
            { pattern: 'NGM-\\d{6}', where: 'subject' },
          ],
          gulftrade: [{ pattern: 'ops@gulftrade\\.example', where: 'from', label: 'Gulftrade' }],
        },
        mappings: { waybill: [{ column: 'AWB No' }, { column: 'Air Waybill' }] },
      },
    };
    const r = await core.authority.import(core.tenant, core.teacher, {
      directory,
      taughtBy: DANA,
      reason: 'initial directory',
    });
    expect(r?.definitionVersion).toBe(1);
    expect(r?.describes).toMatch(/imported 5 lessons/);
    const d = (await core.authority.active(core.tenant)).definition;
    expect([...d.collections.get('customers')!.keys()]).toEqual(['gulftrade', 'northgate']);
    expect(await core.authority.import(core.tenant, core.teacher, { directory, taughtBy: DANA })).toBeNull();
    const bad = { collections: { customers: { x: [{ pattern: '(', where: 'from' }] } } };
    const e = await domainError(
      core.authority.import(core.tenant, core.teacher, { directory: bad, taughtBy: DANA }),
    );
    expect(e.code).toBe('IMPORT_MALFORMED');
    expect(e.message).toMatch(/customers "x"/);
    expect((await core.authority.history(core.tenant)).length).toBe(1);
  });
});
