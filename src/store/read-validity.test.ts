// Invariant (issue 41): within one call (an HTTP request) a connection asks the database once
// whether another process committed; the call still sees every commit made before it began, and a
// commit made while it runs is seen by the next call. On SQLite and PostgreSQL alike.
import { sql, type Kysely } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { STORE_ENGINES, useStoreEngine } from '../../test/support/store-engines.ts';
import { checksMade, currentGeneration, oneCheckPerCall } from './read-validity.ts';

describe.each(STORE_ENGINES)('$name read validity, one check per call', ({ name }) => {
  const engine = useStoreEngine(name);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let server: Kysely<any>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let other: Kysely<any>;
  beforeEach(async () => {
    server = await engine.fresh();
    other = await engine.connect();
  });
  // A commit by another process that moves the generation: a token row on SQLite (data_version),
  // the change counter's own bump on PostgreSQL (migration 008's triggers move it with each write).
  const commitElsewhere = async (): Promise<void> => {
    if (name === 'PostgreSQL') await sql`update change_generation set n = n + 1 where id = 1`.execute(other);
    else
      await sql`create table if not exists t_commit (n integer)`
        .execute(other)
        .then(() => sql`insert into t_commit values (1)`.execute(other));
  };

  it('asks once per call, and sees a commit made before the call', async () => {
    const g0 = await currentGeneration(server);
    await commitElsewhere();
    const before = checksMade(server);
    const [first, second, third] = await oneCheckPerCall(async () => [
      await currentGeneration(server),
      await currentGeneration(server),
      await currentGeneration(server),
    ]);
    expect(checksMade(server) - before).toBe(1);
    expect(first).not.toBe(g0);
    expect(second).toBe(first);
    expect(third).toBe(first);
  });

  it('sees a commit made during a call in the next call, and outside a call at every check', async () => {
    const inCall = await oneCheckPerCall(async () => {
      const g = await currentGeneration(server);
      await commitElsewhere();
      expect(await currentGeneration(server)).toBe(g);
      return g;
    });
    const next = await oneCheckPerCall(() => currentGeneration(server));
    expect(next).not.toBe(inCall);
    const before = checksMade(server);
    await currentGeneration(server);
    await currentGeneration(server);
    expect(checksMade(server) - before).toBe(2);
  });
});
