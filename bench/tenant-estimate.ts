/**
 * What one tenant's reading holds, measured against what the memory budget estimates (issue 51):
 * seeds a tenant of N customers (the tenants bench's directory), then, in this process, loads its
 * active definition through a fresh authority and compiles its matcher, and measures what each
 * part frees when it forgets the tenant (between full collections), three times; prints the
 * estimates and the median measures as JSON. Run with --expose-gc:
 *
 *   node --expose-gc --import tsx bench/tenant-estimate.ts --customers=N [--shape=bench|rich]
 *
 * Measured: V8's used heap plus memory outside it (typed arrays' stores, re2's), after gc().
 */
import { rmSync } from 'node:fs';
import { createAuthority } from '../src/domain/authority/index.ts';
import { systemClock } from '../src/domain/clock.ts';
import { emptyDefinition } from '../src/domain/definitions/index.ts';
import { createLearnables } from '../src/domain/learnables/index.ts';
import { tenantId } from '../src/domain/tenant.ts';
import { createMatcherCache } from '../src/domain/triage/index.ts';
import { openStore } from '../src/store/open-store.ts';
import { createSqliteDefinitionStore } from '../src/store/sqlite-definition-store.ts';
import { numberOption } from './options.ts';
import { seeded } from './tenants.bench.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('Run with node --expose-gc.');

/** Used heap plus memory outside it, after collections and a pause (array buffers' stores and re2's are freed after a collection, not during it). */
const held = async (): Promise<number> => {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((ok) => setTimeout(ok, 50));
  }
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
};

/** Load-and-forget rounds; each measure is their median. */
const ROUNDS = 3;

const customers = numberOption(process.argv, 'customers', 1000, { least: 'non-negative', whole: true });
const shape = process.argv.includes('--shape=rich') ? 'rich' : 'bench';
// Two tenants alike: the first read warms the code paths, the second is measured.
const one = await seeded(2, customers, 0, shape);
const db = await openStore({ databaseUrl: undefined, dataDir: one.dir });
try {
  const learnables = createLearnables();
  const authority = createAuthority({
    store: createSqliteDefinitionStore(db),
    learnables,
    settings: { identificationMargin: 0 },
    clock: systemClock,
    erasers: [],
  });
  const tenant = tenantId('bench-t0');
  const matchers = createMatcherCache({ budgetBytes: 2 ** 40 });
  const warm = tenantId('bench-t1');
  await matchers.matcherFor((await authority.active(warm)).definition, learnables);
  // What each part frees when it forgets the tenant: the code and feedback a load leaves behind
  // (compiled once per process, not per tenant) stay out of the measure. Three load-and-forget
  // rounds, the median of each measure: one round of a small tenant is within the collector's noise.
  const rounds: { loadMs: number; compileMs: number; definition: number; matcher: number }[] = [];
  let estimated = { definition: 0, matcher: 0, entries: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    const loadStart = performance.now();
    let { definition } = await authority.active(tenant);
    const loadMs = Math.round(performance.now() - loadStart);
    const versionId = definition.versionId;
    const compileStart = performance.now();
    await matchers.matcherFor(definition, learnables);
    const compileMs = Math.round(performance.now() - compileStart);
    estimated = {
      definition: authority.memory.bytesOf(tenant),
      matcher: matchers.bytesOf([versionId]),
      entries: definition.collections.get('customers')?.size ?? 0,
    };
    const loaded = await held();
    matchers.forget([versionId]);
    const withoutMatcher = await held();
    definition = emptyDefinition();
    authority.memory.forget(tenant);
    const withoutEither = await held();
    rounds.push({
      loadMs,
      compileMs,
      matcher: loaded - withoutMatcher,
      definition: withoutMatcher - withoutEither,
    });
  }
  const medianOf = (pick: (r: (typeof rounds)[number]) => number): number =>
    rounds.map(pick).sort((x, y) => x - y)[Math.floor(rounds.length / 2)]!;
  const result = {
    // The first round's times: a cold load and compile, as a start pays them.
    loadMs: rounds[0]!.loadMs,
    compileMs: rounds[0]!.compileMs,
    customers,
    shape,
    entries: estimated.entries,
    definitionEstimated: estimated.definition,
    matcherEstimated: estimated.matcher,
    definitionMeasured: medianOf((r) => r.definition),
    matcherMeasured: medianOf((r) => r.matcher),
  };
  console.log(JSON.stringify(result));
} finally {
  await db.destroy();
  rmSync(one.dir, { recursive: true, force: true });
}
