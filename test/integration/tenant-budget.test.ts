// Invariant (issue 15, §10.3): one matcher cache serves every tenant within its byte budget, and a
// tenant whose versions another tenant's triage evicted still finishes a pinned task on its pinned
// version (compiled again, reading exactly as before), while its new tasks read its active one.
// Real SQLite (the real migrations), the real authority and triage service; no timing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLearnables } from '../../src/domain/learnables/index.ts';
import {
  createMatcherCache,
  createTriageService,
  type TriageService,
} from '../../src/domain/triage/index.ts';
import { tenantId } from '../../src/domain/tenant.ts';
import { SqliteCorpusStore } from '../../src/store/sqlite-corpus-store.ts';
import { mail } from '../support/definitions.ts';
import { customerOf } from '../support/readings.ts';
import { openCore, steppingClock, type Core } from './knowledge-harness.ts';

const learnables = createLearnables();
const other = tenantId('globex');
let core: Core;
let cache: ReturnType<typeof createMatcherCache>;
let service: TriageService;

async function teach(tenant: typeof other, entry: string, value: Record<string, unknown>) {
  return core.authority.absorb(
    tenant,
    { ...core.teacher, tenant },
    { collection: 'customers', entry, value, taughtBy: 'dana@warehouse.example' },
  );
}

beforeEach(async () => {
  core = await openCore();
  // A budget of one byte: every compiled version but the one just used is evicted.
  cache = createMatcherCache({ budgetBytes: 1 });
  service = createTriageService({
    definitions: core.authority,
    corpus: new SqliteCorpusStore(core.db),
    learnables,
    settings: { identificationMargin: 0.5 },
    matcherCache: cache,
    clock: steppingClock(),
  });
  await teach(core.tenant, 'northgate', {
    label: 'Northgate',
    pattern: '@northgatemotors\\.example',
    where: 'from',
  });
  // The other tenant knows the same sender as a customer of its own.
  await teach(other, 'origin-b', { label: 'Origin B', pattern: 'billing@origin\\.example', where: 'from' });
});
afterEach(async () => {
  await core.close();
});

describe('tenants within one matcher budget (issue 15)', () => {
  it('finishes a pinned task on its version after another tenant evicted it (§10.3)', async () => {
    const m = mail({ from: { address: 'billing@origin.example', name: '' } });
    const first = await service.triage(core.tenant, m);
    expect(customerOf(first.reading).settled).toBe(false);
    const taught = await teach(core.tenant, 'northgate', {
      pattern: 'billing@origin\\.example',
      where: 'from',
    });
    expect(taught.learned).toBe(true);

    // The other tenant's triage takes the budget: the first tenant's versions leave.
    const theirs = await service.triage(other, m);
    expect(customerOf(theirs.reading).winner).toBe('origin-b');
    expect(cache.versions()).toEqual([theirs.pin.versionId]);
    expect(cache.stats().evictions).toBeGreaterThan(0);

    // Resumed on its pin: compiled again, the old version, still unsettled (not the other tenant's reading).
    const resumed = await service.triage(core.tenant, m, first.pin);
    expect(resumed.reading.versionId).toBe(first.pin.versionId);
    expect(customerOf(resumed.reading).settled).toBe(false);
    expect(cache.versions()).toEqual([first.pin.versionId]);

    // A new task reads the active version.
    const fresh = await service.triage(core.tenant, m);
    expect(fresh.pin.versionId).toBe(taught.versionId);
    expect(customerOf(fresh.reading).winner).toBe('northgate');
    // And the other tenant, evicted in turn, still reads its own.
    expect(customerOf((await service.triage(other, m)).reading).winner).toBe('origin-b');
  });
});
