/**
 * The boundary where the service is observed: decorators over the ports the composition root wires
 * (the triage port, the authority, the matcher cache). Each forwards every call unchanged and
 * records what happened in `ServiceMetrics` and, for a triaged message, its task, context and
 * tenant ids, its outcome and duration: on the line of the HTTP request that carried it (`triage`),
 * or on a line of its own ('message triaged') when no request did (an IMAP sweep). The domain stays I/O-free: it is
 * wrapped, never edited, and no domain module imports this folder.
 *
 * Does not log a lesson value, an address or a message's text: only ids, counts, states and times.
 */
import type { Authority } from '../domain/authority/index.ts';
import { isDomainError } from '../domain/errors.ts';
import type { TenantId } from '../domain/tenant.ts';
import type { Logger } from './logger.ts';
import type { ServiceMetrics } from './metrics.ts';
import { currentCallContext, logWithRequest } from './request-context.ts';

const seconds = (startNs: bigint): number => Number(process.hrtime.bigint() - startNs) / 1e9;

/** The part of the triage port observed here (structural: this folder imports no other adapter). */
interface Triaging {
  triage(
    tenant: TenantId,
    message: never,
    pin?: never,
    options?: { readonly taskId?: string; readonly contextId?: string },
  ): Promise<{
    readonly questions: readonly { readonly collection: string }[];
    readonly pin: { readonly definitionVersion: number; readonly versionId: string };
  }>;
}

/** `port` with every `triage` call logged (one line per message) and counted. */
export function observeTriage<T extends Triaging>(port: T, logger: Logger, metrics: ServiceMetrics): T {
  const triage: Triaging['triage'] = async (tenant, message, pin, options) => {
    const start = process.hrtime.bigint();
    const call = currentCallContext();
    const ids = {
      ...(call.requestId === undefined ? {} : { requestId: call.requestId }),
      ...(options?.taskId === undefined ? {} : { taskId: options.taskId }),
      ...(options?.contextId === undefined ? {} : { contextId: options.contextId }),
      tenant,
      path: call.path ?? 'a2a',
    };
    try {
      const outcome = await port.triage(tenant, message, pin, options);
      const duration = seconds(start);
      const state = outcome.questions.length > 0 ? 'TASK_STATE_INPUT_REQUIRED' : 'TASK_STATE_COMPLETED';
      const questions = outcome.questions.map((q) => q.collection);
      metrics.messageRead({ tenant, path: ids.path, state, questions, seconds: duration });
      const { requestId: _, ...triage } = ids;
      logWithRequest(
        (fields, msg) => logger.info(fields, msg),
        {
          triage: {
            ...triage,
            outcome: questions.length > 0 ? 'input-required' : 'completed',
            questions,
            definitionVersion: outcome.pin.definitionVersion,
            durationMs: Math.round(duration * 1e6) / 1e3,
          },
        },
        'message triaged',
      );
      return outcome;
    } catch (e) {
      const duration = seconds(start);
      metrics.messageRead({
        tenant,
        path: ids.path,
        state: 'TASK_STATE_FAILED',
        questions: [],
        seconds: duration,
      });
      logger.warn(
        {
          ...ids,
          outcome: 'failed',
          code: isDomainError(e) ? e.code : 'INTERNAL',
          durationMs: Math.round(duration * 1e6) / 1e3,
        },
        'message not triaged',
      );
      throw e;
    }
  };
  return Object.assign(Object.create(port) as T, { triage });
}

/** `authority` with lessons and activations counted (§10.4 outcomes; §10.3 activations; §14 erasures). */
export function observeAuthority(authority: Authority, metrics: ServiceMetrics): Authority {
  const activated = (tenant: TenantId, action: 'rollback' | 'revert' | 'erase' | 'import') => () =>
    metrics.activation(tenant, action);
  return {
    ...bindAll(authority),
    async absorb(tenant, principal, lesson) {
      try {
        const result = await authority.absorb(tenant, principal, lesson);
        metrics.lesson(tenant, result.learned ? 'learned' : 'unchanged');
        if (result.learned) metrics.activation(tenant, 'teach');
        return result;
      } catch (e) {
        if (isDomainError(e) && (e.code === 'LESSON_REFUSED' || e.code === 'ENTRY_UNKNOWN'))
          metrics.lesson(tenant, 'refused');
        throw e;
      }
    },
    rollback: (tenant, principal, input) =>
      authority.rollback(tenant, principal, input).then(tap(activated(tenant, 'rollback'))),
    revert: (tenant, principal, input) =>
      authority.revert(tenant, principal, input).then(tap(activated(tenant, 'revert'))),
    erase: (tenant, principal, input) =>
      authority.erase(tenant, principal, input).then(tap(activated(tenant, 'erase'))),
    import: (tenant, principal, input) =>
      authority.import(tenant, principal, input).then((r) => {
        if (r !== null) metrics.activation(tenant, 'import');
        return r;
      }),
  };
}

function tap<R>(f: () => void): (r: R) => R {
  return (r) => {
    f();
    return r;
  };
}

function bindAll(authority: Authority): Authority {
  return {
    descriptors: () => authority.descriptors(),
    absorb: (...a) => authority.absorb(...a),
    active: (...a) => authority.active(...a),
    load: (...a) => authority.load(...a),
    history: (...a) => authority.history(...a),
    rollback: (...a) => authority.rollback(...a),
    revert: (...a) => authority.revert(...a),
    erase: (...a) => authority.erase(...a),
    import: (...a) => authority.import(...a),
    rulesInForce: (...a) => authority.rulesInForce(...a),
    personHandles: (...a) => authority.personHandles(...a),
  };
}

/** The part of the matcher cache observed here. */
interface CompilingCache<M extends { readonly markCount: number; match(m: never): unknown }> {
  matcherFor(definition: { readonly versionId: string }, ...rest: never[]): Promise<M>;
  prepare(definition: { readonly versionId: string }, ...rest: never[]): Promise<M>;
  readonly versions: () => readonly string[];
}

/**
 * `cache` with each compile timed (a version not compiled before the call) and every match timed.
 * The matchers handed out are wrappers kept per matcher, so the cache's own identity checks still hold.
 */
export function observeMatcherCache<
  M extends { readonly markCount: number; match(m: never): unknown },
  C extends CompilingCache<M>,
>(cache: C, metrics: ServiceMetrics): C {
  const wrapped = new WeakMap<M, M>();
  const wrap = (m: M): M => {
    let w = wrapped.get(m);
    if (w === undefined) {
      const match = (message: never): unknown => {
        const start = process.hrtime.bigint();
        try {
          return m.match(message);
        } finally {
          metrics.matched(seconds(start));
        }
      };
      w = Object.assign(Object.create(m) as M, { match });
      wrapped.set(m, w);
    }
    return w;
  };
  const timed =
    (f: (definition: { readonly versionId: string }, ...rest: never[]) => Promise<M>) =>
    async (definition: { readonly versionId: string }, ...rest: never[]): Promise<M> => {
      const compiled = cache.versions().includes(definition.versionId);
      const start = process.hrtime.bigint();
      const m = await f(definition, ...rest);
      if (!compiled) metrics.matcherCompiled(seconds(start), m.markCount);
      return wrap(m);
    };
  return Object.assign(Object.create(cache) as C, {
    matcherFor: timed((d, ...r) => cache.matcherFor(d, ...r)),
    prepare: timed((d, ...r) => cache.prepare(d, ...r)),
  });
}
