// Invariant (issue 51): one memory budget for every tenant's reading. Each tenant's definitions and
// objects are held apart from another's; past the budget the least recently used tenant is forgotten
// whole (its definitions, objects and compiled matchers), and it reads exactly as before when its
// next message comes. Real SQLite (the real migrations), the real authority and triage service.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLearnables } from '../../src/domain/learnables/index.ts';
import { tenantId, type TenantId } from '../../src/domain/tenant.ts';
import { createTenantMemory, type TenantMemory } from '../../src/domain/tenant-memory.ts';
import {
  createMatcherCache,
  createTriageService,
  matchersByTenant,
  withinBudget,
  type TriageService,
} from '../../src/domain/triage/index.ts';
import { SqliteCorpusStore } from '../../src/store/sqlite-corpus-store.ts';
import { mail } from '../support/definitions.ts';
import { customerOf } from '../support/readings.ts';
import { openCore, steppingClock, type Core } from './knowledge-harness.ts';

const learnables = createLearnables();
const [globex, initech] = [tenantId('globex'), tenantId('initech')];
let core: Core;

async function teach(tenant: TenantId, entry: string, pattern: string) {
  const taught = await core.authority.absorb(
    tenant,
    { ...core.teacher, tenant },
    {
      collection: 'customers',
      entry,
      value: { label: entry, pattern, where: 'from' },
      taughtBy: 'dana@warehouse.example',
    },
  );
  expect(taught.learned).toBe(true);
}

const from = (address: string) => mail({ from: { address, name: '' } });

beforeEach(async () => {
  core = await openCore();
  await teach(core.tenant, 'northgate', '@northgatemotors\\.example');
  await teach(globex, 'origin-b', '@origin\\.example');
  await teach(initech, 'lumbergh', '@lumbergh\\.example');
});
afterEach(async () => {
  await core.close();
});

describe("a tenant's memory, held apart and forgotten whole (issue 51)", () => {
  it("holds each tenant's definitions and objects apart, and forgets one without the other", async () => {
    const before = await core.authority.active(core.tenant);
    await core.authority.active(globex);
    const held = core.authority.memory;
    const globexBytes = held.bytesOf(globex);
    expect(held.bytesOf(core.tenant)).toBeGreaterThan(0);
    expect(globexBytes).toBeGreaterThan(0);

    held.forget(core.tenant);
    expect(held.bytesOf(core.tenant)).toBe(0);
    expect(held.bytesOf(globex)).toBe(globexBytes);

    // Read again from the store: the same version, the same content (§10.3: an id names its content).
    const again = await core.authority.active(core.tenant);
    expect(again.definition).not.toBe(before.definition);
    expect(again.definition.versionId).toBe(before.definition.versionId);
    expect(again.definition.collections).toEqual(before.definition.collections);
    expect(held.bytesOf(core.tenant)).toBeGreaterThan(0);
  });

  describe('through the triage service', () => {
    let cache: ReturnType<typeof createMatcherCache>;
    let memory: TenantMemory;
    let service: TriageService;
    const open = (budgetBytes: number): void => {
      cache = createMatcherCache({ budgetBytes: 2 ** 30 });
      const matchers = matchersByTenant(cache);
      memory = createTenantMemory({ budgetBytes, parts: [core.authority.memory, matchers] });
      service = createTriageService({
        definitions: withinBudget(core.authority, memory, matchers),
        corpus: new SqliteCorpusStore(core.db),
        learnables,
        settings: { identificationMargin: 0.5 },
        matcherCache: cache,
        clock: steppingClock(),
      });
    };

    it('forgets the least recently used tenant whole, and it reads the same on its next message', async () => {
      open(1); // every tenant but the one just used is forgotten
      const first = await service.triage(core.tenant, from('ops@northgatemotors.example'));
      expect(customerOf(first.reading).winner).toBe('northgate');
      expect(cache.versions()).toEqual([first.pin.versionId]);

      const theirs = await service.triage(globex, from('billing@origin.example'));
      expect(customerOf(theirs.reading).winner).toBe('origin-b');
      // The first tenant is gone whole: its definitions and objects, and its compiled matcher.
      expect(core.authority.memory.bytesOf(core.tenant)).toBe(0);
      expect(cache.versions()).toEqual([theirs.pin.versionId]);
      expect(memory.stats()).toMatchObject({ tenants: 1, evictions: 1 });

      // Its next message reads its version again from the store, exactly as before.
      const again = await service.triage(core.tenant, from('ops@northgatemotors.example'));
      expect(again.reading).toEqual(first.reading);
      expect(core.authority.memory.bytesOf(globex)).toBe(0);
    });

    it('keeps every tenant within a budget that holds them all', async () => {
      open(2 ** 30);
      for (const [tenant, sender] of [
        [core.tenant, 'ops@northgatemotors.example'],
        [globex, 'billing@origin.example'],
        [initech, 'bill@lumbergh.example'],
      ] as const)
        expect(customerOf((await service.triage(tenant, from(sender))).reading).settled).toBe(true);
      expect(memory.stats()).toMatchObject({ tenants: 3, evictions: 0 });
      expect(cache.versions()).toHaveLength(3);
      for (const t of [core.tenant, globex, initech])
        expect(core.authority.memory.bytesOf(t)).toBeGreaterThan(0);
    });
  });
});
