// Invariant: a task's pinned version is read from stored state, and only within the task's own tenant (§10.3, §13.4).
import type { Kysely } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { EXTENSION_URI } from '../domain/extension.ts';
import { tenantId } from '../domain/tenant.ts';
import { STORE_ENGINES, useStoreEngine } from '../../test/support/store-engines.ts';
import { createSqliteTaskPins } from './sqlite-task-pins.ts';

const pin = { definitionVersion: 11, versionId: `sha256:${'a'.repeat(64)}` };

describe.each(STORE_ENGINES)('$name task pins', ({ name }) => {
  const engine = useStoreEngine(name);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let db: Kysely<any>;
  beforeEach(async () => {
    db = await engine.fresh();
  });

  async function insertTask(tenant: string, owner: string, id: string, metadata: unknown): Promise<void> {
    await db
      .insertInto('tasks')
      .values({
        tenant,
        owner,
        id,
        context_id: 'c1',
        status_last_updated: 1,
        status_state: 'TASK_STATE_COMPLETED',
        metadata: JSON.stringify(metadata),
        protocol_version: '1.0',
      })
      .execute();
  }

  it('reads the pin under the extension URI (§10.3)', async () => {
    await insertTask('demo', 'dana', 't1', { [EXTENSION_URI]: { pin, other: 1 } });
    expect(await createSqliteTaskPins(db).pinOf(tenantId('demo'), 't1')).toEqual(pin);
  });

  it('finds a task whose owner is scoped as <tenant>/<principal>', async () => {
    await insertTask('', 'demo/app:preshipment', 't2', { [EXTENSION_URI]: { pin } });
    expect(await createSqliteTaskPins(db).pinOf(tenantId('demo'), 't2')).toEqual(pin);
  });

  it('does not find another tenant’s task (§13.2)', async () => {
    await insertTask('acme', 'x', 't3', { [EXTENSION_URI]: { pin } });
    await insertTask('', 'acme/x', 't4', { [EXTENSION_URI]: { pin } });
    const pins = createSqliteTaskPins(db);
    expect(await pins.pinOf(tenantId('demo'), 't3')).toBeNull();
    expect(await pins.pinOf(tenantId('demo'), 't4')).toBeNull();
    expect(await pins.pinOf(tenantId('acm'), 't4')).toBeNull();
  });

  it('answers null for an unpinned or unknown task', async () => {
    await insertTask('demo', 'x', 't5', { other: true });
    const pins = createSqliteTaskPins(db);
    expect(await pins.pinOf(tenantId('demo'), 't5')).toBeNull();
    expect(await pins.pinOf(tenantId('demo'), 'nope')).toBeNull();
  });
});
