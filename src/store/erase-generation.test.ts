// Invariant (§14, issue 15): a server notices another process's erase on the read after it, and a task's definition read asks the database once: the erase watch reuses the generation the head read just took (one `pragma data_version` on SQLite, one counter read on PostgreSQL), and asks by itself only when no read did.
import type { Kysely } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { tenantId } from '../domain/tenant.ts';
import { STORE_ENGINES, useStoreEngine } from '../../test/support/store-engines.ts';
import { createEraseWatch, eraseGenerationEraser } from './erase-generation.ts';
import { checksMade } from './read-validity.ts';
import { createSqliteDefinitionStore } from './sqlite-definition-store.ts';

const demo = tenantId('demo');

describe.each(STORE_ENGINES)('$name erase watch', ({ name }) => {
  const engine = useStoreEngine(name);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let server: Kysely<any>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let cli: Kysely<any>;
  beforeEach(async () => {
    server = await engine.fresh();
    cli = await engine.connect();
  });

  it('reuses the head read’s check, so a definition read asks the database once, and still notices a CLI erase', async () => {
    let forgotten = 0;
    const watch = await createEraseWatch(server, () => forgotten++);
    const store = createSqliteDefinitionStore(server);

    const read = async (): Promise<boolean> => {
      const before = checksMade(server);
      await store.head(demo);
      const erased = await watch.check(before);
      expect(checksMade(server) - before).toBe(1);
      return erased;
    };
    expect(await read()).toBe(false);
    await eraseGenerationEraser(cli).erase(demo, 'dana@warehouse.example');
    expect(await read()).toBe(true);
    expect(forgotten).toBe(1);
    expect(await read()).toBe(false);
    expect(forgotten).toBe(1);
  });

  it('asks by itself when no read asked before it (the split topology resolves over HTTP)', async () => {
    let forgotten = 0;
    const watch = await createEraseWatch(server, () => forgotten++);
    await eraseGenerationEraser(cli).erase(demo, 'dana@warehouse.example');
    const before = checksMade(server);
    expect(await watch.check(before)).toBe(true);
    expect(checksMade(server) - before).toBe(1);
    expect(forgotten).toBe(1);
  });
});
