// Invariant: erasing a personal identifier leaves it in no live version, no stored object body, no history text and no person handle, while history rows and version ids remain (§14).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isDomainError } from '../../src/domain/errors.ts';
import { openCore, type Core } from './knowledge-harness.ts';

const DANA = 'dana@origin.example';
const SAM = 'sam@warehouse.example';

describe('erase (§14)', () => {
  let core: Core;
  beforeEach(async () => {
    core = await openCore();
  });
  afterEach(async () => {
    await core.close();
  });

  const teach = (
    collection: string,
    entry: string,
    value: Record<string, unknown>,
    taughtBy = SAM,
    reason?: string,
  ) =>
    core.authority.absorb(core.tenant, core.teacher, {
      collection,
      entry,
      // Asking to create, so a lesson for a new entry creates it (issue 12.3: no entry by accident).
      value: collection === 'mappings' ? { newField: 'yes', ...value } : { label: entry, ...value },
      taughtBy,
      ...(reason === undefined ? {} : { reason }),
    });

  async function bodiesMentioning(text: string): Promise<number> {
    const rows = (await core.db
      .selectFrom('objects')
      .select('body')
      .where('tenant', '=', core.tenant)
      .execute()) as { body: string | null }[];
    const re = new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '[\\\\]*\\$&'), 'i');
    return rows.filter((r) => r.body !== null && re.test(r.body)).length;
  }

  it('activates a version without the identifier, tombstones every version holding it, and scrubs history', async () => {
    const v1 = await teach('customers', 'northgate', {
      pattern: 'billing@origin\\.example',
      where: 'from',
      label: 'Northgate Motors Ltd',
    });
    const v2 = await teach(
      'customers',
      'northgate',
      { pattern: 'Dana@Origin\\.example', where: 'from' },
      SAM,
      `${DANA} sends the pre-alerts`,
    );
    const v3 = await teach(
      'customers',
      'gulftrade',
      { pattern: 'ops@gulftrade\\.example', where: 'from' },
      DANA,
    );
    expect(await bodiesMentioning(DANA)).toBeGreaterThan(0);

    const result = await core.authority.erase(core.tenant, core.teacher, {
      identifier: DANA,
      taughtBy: SAM,
      reason: `request from ${DANA}`,
    });

    // The active version no longer holds it, and is new.
    expect(result.activated).not.toBeNull();
    expect(result.activated!.definitionVersion).toBe(4);
    const active = await core.authority.active(core.tenant);
    expect(JSON.stringify([...active.definition.collections.get('customers')!])).not.toMatch(/dana@origin/i);
    const rules = await core.authority.rulesInForce(core.tenant, active.definition.versionId);
    expect(rules.some((r) => /billing@origin/.test(r.describes))).toBe(true);
    expect(rules.some((r) => /ops@gulftrade/.test(r.describes))).toBe(true);

    // Every historical version holding it is tombstoned; the one that never held it is still loadable.
    expect(new Set(result.tombstonedVersions)).toEqual(new Set([v2.versionId, v3.versionId]));
    expect((await core.authority.load(core.tenant, v1.versionId!)).versionId).toBe(v1.versionId);
    for (const v of [v2.versionId!, v3.versionId!]) {
      const e = await core.authority.load(core.tenant, v).catch((x: unknown) => x);
      expect(isDomainError(e, 'DEFINITION_VERSION_TOMBSTONED')).toBe(true);
      expect((e as Error).message).toMatch(/tombstoned.*erased/);
      const r = await core.authority
        .rollback(core.tenant, core.teacher, { to: 2, taughtBy: SAM })
        .catch((x: unknown) => x);
      expect(isDomainError(r, 'DEFINITION_VERSION_TOMBSTONED')).toBe(true);
    }
    expect(await core.store.versionStatus(core.tenant, v2.versionId!)).toBe('tombstoned');

    // No stored object body holds it any more (bodies removed, ids kept).
    expect(await bodiesMentioning(DANA)).toBe(0);
    const nulls = await core.db
      .selectFrom('objects')
      .select('hash')
      .where('tenant', '=', core.tenant)
      .where('body', 'is', null)
      .execute();
    expect(nulls.length).toBeGreaterThan(0);

    // History rows remain, marked, with the identifier scrubbed and the person forgotten.
    const history = await core.authority.history(core.tenant);
    expect(history.map((h) => h.definitionVersion)).toEqual([4, 3, 2, 1]);
    expect(history.map((h) => h.tombstoned)).toEqual([false, true, true, false]);
    expect(JSON.stringify(history)).not.toMatch(/dana@origin/i);
    expect(history.find((h) => h.definitionVersion === 3)!.taughtBy).toBe('[erased]');
    expect(history.find((h) => h.definitionVersion === 2)!.reason).toBe('[erased] sends the pre-alerts');
    expect(history[0]).toMatchObject({ action: 'erase', taughtBy: SAM });
    expect(result.peopleForgotten).toBe(1);

    // Nothing left to find: a second erase changes nothing.
    const again = await core.authority.erase(core.tenant, core.teacher, { identifier: DANA, taughtBy: SAM });
    expect(again.activated).toBeNull();
    expect(again.tombstonedVersions).toEqual([]);
  });

  it('tombstones historical versions even when the active one no longer holds the identifier', async () => {
    const v1 = await teach('customers', 'northgate', { pattern: 'dana@origin\\.example', where: 'from' });
    await core.authority.revert(core.tenant, core.teacher, { activation: 1, taughtBy: SAM });
    const result = await core.authority.erase(core.tenant, core.teacher, { identifier: DANA, taughtBy: SAM });
    expect(result.activated).toBeNull();
    expect(result.tombstonedVersions).toEqual([v1.versionId]);
    expect(await bodiesMentioning(DANA)).toBe(0);
    expect((await core.authority.history(core.tenant)).map((h) => h.tombstoned)).toEqual([false, true]);
  });

  it('erases from every learnable through its own erase(), including mappings', async () => {
    await teach('mappings', 'waybill', { column: 'AWB dana@origin.example' });
    await teach('mappings', 'waybill', { column: 'Air Waybill' });
    const result = await core.authority.erase(core.tenant, core.teacher, { identifier: DANA, taughtBy: SAM });
    expect(result.activated).not.toBeNull();
    const rules = await core.authority.rulesInForce(core.tenant, result.activated!.versionId);
    expect(rules.map((r) => r.describes).join()).not.toMatch(/dana/i);
    expect(rules.map((r) => r.describes).join()).toMatch(/Air Waybill/);
    expect(await bodiesMentioning(DANA)).toBe(0);
  });

  it('refuses an identifier too short to be one', async () => {
    const e = await core.authority
      .erase(core.tenant, core.teacher, { identifier: ' a ', taughtBy: SAM })
      .catch((x: unknown) => x);
    expect(isDomainError(e, 'REQUEST_MALFORMED')).toBe(true);
  });
});
