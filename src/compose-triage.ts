/**
 * The triage path of one process, on whichever topology compose-definitions.ts chose: the one memory
 * budget for every tenant (tenant-memory.ts), the triage service reading definitions through the
 * erase watch and that budget, the compile of each new activation for the tenants served lately,
 * and the readiness of each served tenant's matcher.
 *
 * Every definition triage reads passes, outermost first: the budget (a use of the tenant), the
 * erase watch (another process erased since? then memory is forgotten and the head read again), the
 * source (the embedded authority or the remote one).
 */
import type { Kysely } from 'kysely';
import type { Config } from './config/config.ts';
import type { Learnable } from './domain/learnables/index.ts';
import { createTenantMemory } from './domain/tenant-memory.ts';
import type { TenantId } from './domain/tenant.ts';
import { systemClock } from './domain/clock.ts';
import {
  analysisKeeping,
  createTriageService,
  matchersByTenant,
  withinBudget,
  type TriageService,
} from './domain/triage/index.ts';
import type { DefinitionSource } from './http/remote-authority.ts';
import { faultLogOf, type Logger } from './observability/logger.ts';
import type { Metrics } from './observability/metrics.ts';
import { matcherCheck, type ReadinessCheck } from './observability/readiness.ts';
import { tenantMemoryMetrics } from './observability/tenant-memory-metrics.ts';
import type { EraseWatch } from './store/erase-generation.ts';
import { checksMade } from './store/read-validity.ts';
import type { ProcessParts } from './compose-process.ts';
import type { Topology } from './compose-definitions.ts';

/** Tenants whose new activations this process compiles as they are announced (the most recently served). */
const MAX_RECENT_TENANTS = 64;

export interface TriageParts {
  readonly triage: TriageService;
  /** /readyz: each served tenant's matcher, warmed at once so its first task need not wait. */
  readonly matchers: readonly ReadinessCheck[];
}

export function composeTriage(deps: {
  readonly config: Config;
  readonly parts: ProcessParts;
  readonly topology: Topology;
  readonly learnables: readonly Learnable[];
  readonly settings: { readonly identificationMargin: number };
  readonly logger: Logger;
  readonly metrics: Metrics;
}): TriageParts {
  const { config, parts, topology, learnables } = deps;
  const { matcherCache } = parts;
  const embedded = topology.kind === 'embedded' ? topology : null;
  // One budget for what every tenant's reading holds (its definitions and objects when the
  // authority is embedded, its compiled matchers); the least recently used tenant is forgotten whole.
  const matchersOfTenants = matchersByTenant(matcherCache);
  const tenantMemory = createTenantMemory({
    budgetBytes: config.matcherMemoryBudgetMb * 2 ** 20,
    parts: [...(embedded === null ? [] : [embedded.authority.memory]), matchersOfTenants],
  });
  tenantMemoryMetrics(deps.metrics.registry, () => tenantMemory.stats());
  const source = watchedForErasures(topology.source, parts.eraseWatch, parts.db, parts.recentTenants);
  const analyses = embedded?.analyses;
  const triage = createTriageService({
    definitions: withinBudget(source, tenantMemory, matchersOfTenants),
    corpus: parts.corpus,
    learnables,
    settings: {
      ...deps.settings,
      rawMailRetentionDays: config.rawMailRetentionDays,
      ...(config.corpusRetentionDays === undefined
        ? {}
        : { corpusRetentionDays: config.corpusRetentionDays }),
    },
    matcherCache,
    ...(analyses === undefined ? {} : { analyses }),
    clock: systemClock,
    resolvePerson: topology.resolvePerson,
    ...(embedded === null ? {} : { colleagues: embedded.colleagues }),
  });
  const compile = async (t: TenantId): Promise<unknown> =>
    matcherCache.matcherFor(
      (await topology.source.active(t)).definition,
      learnables,
      analysisKeeping(analyses, t),
    );
  if (config.role === 'authority') return { triage, matchers: [] };
  // One compile per new version: the matcher cache shares a compile in progress for a version with
  // every task that asks for it meanwhile, and answers later ones from the cache. A tenant this
  // process does not serve now compiles on its first task.
  const log = faultLogOf(deps.logger);
  parts.activated.add((t) => {
    if (parts.recentTenants.has(t))
      compile(t).catch((e: unknown) => log('compiling a newly activated version failed', e));
  });
  const matchers = servedTenants(config, topology.tenant).map((t) =>
    matcherCheck(t, {
      active: async () => {
        const a = await topology.source.active(t);
        return { definitionVersion: a.definitionVersion, versionId: a.definition.versionId };
      },
      compiled: () => matcherCache.versions(),
      // The path a task takes (sliced, reading and keeping the tenant's analyses).
      compile: () => compile(t),
    }),
  );
  for (const m of matchers) m.warm();
  return { triage, matchers };
}

/** The tenants this process serves from the start: its own, and every mailbox's and webhook's. */
function servedTenants(config: Config, tenant: TenantId): TenantId[] {
  return [
    ...new Set<TenantId>([
      tenant,
      ...config.mailboxes.map((m) => m.tenant as TenantId),
      ...config.inboundWebhooks.map((w) => w.tenant as TenantId),
    ]),
  ];
}

/**
 * The definitions triage reads, each read first asking whether another process erased since (§14):
 * every task, show-back and dry run resolves its version through here before it uses the memory.
 */
function watchedForErasures(
  source: DefinitionSource,
  watch: EraseWatch,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrated database is untyped
  db: Kysely<any>,
  recentTenants: Set<TenantId>,
): DefinitionSource {
  return {
    descriptors: () => source.descriptors(),
    async active(tenant, options) {
      recentTenants.delete(tenant);
      recentTenants.add(tenant);
      if (recentTenants.size > MAX_RECENT_TENANTS) recentTenants.delete(recentTenants.values().next().value!);
      // The head read asks the database whether another process committed; the watch reuses that
      // answer (one pragma per task, not two). Found an erase: memory is forgotten, resolve again.
      const before = checksMade(db);
      const pinned = await source.active(tenant, options);
      return (await watch.check(before)) ? source.active(tenant, options) : pinned;
    },
    async load(tenant, versionId) {
      await watch.check();
      return source.load(tenant, versionId);
    },
  };
}
