/**
 * The external authority over HTTP (§12.1, RECOMMENDED profile), mounted at /authority/v1.
 *
 * Every route needs a bearer token (§13.2); the tenant is the token's, never the body's, so another
 * tenant's version or task is simply not found. Roles: `read` for reads, `teach` for lessons and
 * dry-runs, `admin` for rollback, revert and erase. Bodies and responses are JSON; every error is
 * `{ error: { code, message, details? } }` (src/http/errors.ts maps codes to statuses).
 *
 * Deliberately does not: read a key of a lesson value (§9: the value is handed to the authority,
 * which hands it to the learnable), touch storage (ports: Authority, TaskPinReader, LessonDryRun),
 * or know how tokens are stored (TokenVerifier).
 */
import express, { type RequestHandler, type Router } from 'express';
import type { Authority, Lesson, Principal, TokenVerifier } from '../domain/authority/index.ts';
import type { VersionId } from '../domain/definitions/index.ts';
import { DomainError } from '../domain/errors.ts';
import type { TenantId } from '../domain/tenant.ts';
import { bearerAuth, principalOf, requireRole } from './auth.ts';
import { activeToWire, definitionToWire } from './definition-wire.ts';
import {
  intField,
  optionalIntQuery,
  optionalStringQuery,
  parseLesson,
  requireObject,
  stringField,
  throwIfProblems,
  whoAndWhy,
} from './authority-fields.ts';
import { consoleFaultLog, errorHandler, notFoundHandler, type FaultLog } from './errors.ts';
import type { HeadBell } from './head-bell.ts';

/** The mount point of the authority API. */
export const AUTHORITY_API_PATH = '/authority/v1';

/** The version a task was pinned to (§10.3), as stored in the task's metadata. */
export interface TaskPin {
  readonly definitionVersion: number;
  readonly versionId: VersionId;
}

/** Reads a task's pin from stored state (§13.4). Tenant-scoped: another tenant's task is null. */
export interface TaskPinReader {
  pinOf(tenant: TenantId, taskId: string): Promise<TaskPin | null>;
}

/**
 * The senders view of one collection (src/domain/triage/senders-view.ts); null when the
 * collection is not one this agent reads.
 */
export type SendersView = (
  tenant: TenantId,
  collection: string | undefined,
  limit: number,
) => Promise<{ collection: string; senders: unknown[] } | null>;

/** §13.1 dry run of a lesson against the tenant's corpus; the report is returned as is. */
export type LessonDryRun = (tenant: TenantId, principal: Principal, lesson: Lesson) => Promise<unknown>;

export interface AuthorityApiDeps {
  readonly authority: Authority;
  readonly verifier: TokenVerifier;
  readonly taskPins: TaskPinReader;
  /** Absent: POST /lessons:dry-run answers 404 NOT_FOUND saying dry runs are not available. */
  readonly dryRun?: LessonDryRun;
  /** GET /senders; absent, 404 saying this process keeps no corpus. */
  readonly senders?: SendersView;
  readonly log?: FaultLog;
  /** Largest JSON body accepted, in bytes. Default 1 MiB. */
  readonly maxBodyBytes?: number;
  /** Wakes GET /head?after= waiters at a new activation (head-bell.ts). Absent: they re-read every second. */
  readonly headBell?: HeadBell;
}

/** Longest a GET /head?after= waits, in ms (and its default). */
export const HEAD_WAIT_MAX_MS = 30_000;
/** A waiting GET /head?after= re-reads the head at least this often, in ms, bell or not. */
const HEAD_RECHECK_MS = 1_000;

/** The /authority/v1 router (mount it at AUTHORITY_API_PATH). */
export function createAuthorityRouter(deps: AuthorityApiDeps): Router {
  const { authority, taskPins } = deps;
  const log = deps.log ?? consoleFaultLog;
  const router = express.Router();
  router.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  router.use(express.json({ limit: deps.maxBodyBytes ?? 1024 * 1024 }));
  router.use(bearerAuth(deps.verifier));

  const read = requireRole('read');
  const teach = requireRole('teach');
  const admin = requireRole('admin');

  router.get('/whoami', (_req, res) => {
    const p = principalOf(res);
    res.json({ tenant: p.tenant, principal: p.id, kind: p.kind, roles: p.roles });
  });

  router.get('/descriptors', read, (_req, res) => {
    res.json({ learnables: authority.descriptors() });
  });

  // §9, §10: the lesson goes to the authority, which delegates judging the value to the learnable.
  router.post('/lessons', teach, async (req, res) => {
    const p = principalOf(res);
    const result = await authority.absorb(p.tenant, p, parseLesson(req.body));
    res.status(200).json(result);
  });

  router.post('/lessons\\:dry-run', teach, dryRunHandler(deps.dryRun));
  router.get('/senders', read, sendersHandler(deps.senders));

  router.get('/history', read, async (req, res) => {
    const p = principalOf(res);
    const limit = optionalIntQuery(req.query.limit, 'limit', 1);
    const beforeVersion = optionalIntQuery(req.query.beforeVersion, 'beforeVersion', 1);
    const options: { limit?: number; beforeVersion?: number } = {};
    if (limit !== undefined) options.limit = limit;
    if (beforeVersion !== undefined) options.beforeVersion = beforeVersion;
    res.json({ history: await authority.history(p.tenant, options) });
  });

  /** The active definition: definitionVersion, versionId, and every entry. */
  router.get('/definition', read, async (_req, res) => {
    const p = principalOf(res);
    res.json(activeToWire(await authority.active(p.tenant)));
  });

  // Which version is active; with ?after=N a long-poll (headHandler).
  router.get('/head', read, headHandler(authority, deps.headBell));

  // §10.3: any version by id, so a task pinned to it can finish; tombstoned 410, unknown 404.
  router.get('/versions/:versionId', read, async (req, res) => {
    const p = principalOf(res);
    const versionId = req.params.versionId as string;
    res.json(definitionToWire(await authority.load(p.tenant, versionId)));
  });

  router.post('/rollback', admin, async (req, res) => {
    const p = principalOf(res);
    const body = requireObject(req.body, '{ "to": 11, "taughtBy": "dana@warehouse.example", "reason": "…" }');
    const problems: string[] = [];
    // `to` is a definitionVersion, beside endpoints that take versionIds: a wrong one names both.
    const to = typeof body.to === 'number' && Number.isInteger(body.to) && body.to >= 0 ? body.to : undefined;
    if (to === undefined)
      problems.push(
        `"to" must be a definitionVersion (the whole number history shows, e.g. 2; 0 is before anything was learned), not a versionId (sha256:…)${typeof body.to === 'string' ? `; got "${body.to}"` : ''}`,
      );
    const who = whoAndWhy(body, problems);
    throwIfProblems(problems);
    res.json(await authority.rollback(p.tenant, p, { to: to!, ...who }));
  });

  router.post('/revert', admin, async (req, res) => {
    const p = principalOf(res);
    const body = requireObject(
      req.body,
      '{ "activation": 12, "taughtBy": "dana@warehouse.example", "reason": "…" }',
    );
    const problems: string[] = [];
    const activation = intField(body, 'activation', problems, 1);
    const who = whoAndWhy(body, problems);
    throwIfProblems(problems);
    res.json(await authority.revert(p.tenant, p, { activation: activation!, ...who }));
  });

  // §14
  router.post('/erase', admin, async (req, res) => {
    const p = principalOf(res);
    const body = requireObject(
      req.body,
      '{ "identifier": "billing@origin.example", "taughtBy": "dana@warehouse.example", "reason": "…" }',
    );
    const problems: string[] = [];
    const identifier = stringField(body, 'identifier', problems);
    const who = whoAndWhy(body, problems);
    throwIfProblems(problems);
    res.json(await authority.erase(p.tenant, p, { identifier: identifier!, ...who }));
  });

  // §13.4: which rules were in force when task X was decided, and who put them there.
  router.get(
    '/rules-in-force',
    read,
    rulesInForceHandler(taskPins, (tenant, versionId) => authority.rulesInForce(tenant, versionId)),
  );

  // §13.4, §14: who a stable person id in provenance is (an agent in another process shows readings
  // with handles, not ids). An erased or unknown id answers null, never an error that would tell them apart.
  router.get('/people', read, async (req, res) => {
    const p = principalOf(res);
    const raw = typeof req.query.ids === 'string' ? req.query.ids : '';
    const ids = raw
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    if (ids.length === 0 || ids.length > MAX_PEOPLE_PER_CALL) {
      throw new DomainError(
        'REQUEST_MALFORMED',
        `Name between 1 and ${MAX_PEOPLE_PER_CALL} person ids, comma-separated: ?ids=<id>,<id> (got ${ids.length}).`,
        { details: { fields: ['ids'] } },
      );
    }
    const handles = await authority.personHandles(p.tenant, ids);
    res.json({ people: ids.map((id) => ({ id, handle: handles.get(id) ?? null })) });
  });

  router.use(notFoundHandler());
  router.use(errorHandler(log));
  return router;
}

/**
 * GET /head: only which version is active (the content comes from /versions/:id). With `?after=N`
 * it is a long-poll: the answer waits until the active definitionVersion is not N, or `waitMs`
 * (default and most HEAD_WAIT_MAX_MS) passed, and then gives the head as it is; a remote agent
 * follows it to learn of a new activation by a push rather than a poll.
 */
function headHandler(authority: Authority, headBell: HeadBell | undefined): RequestHandler {
  return async (req, res) => {
    const p = principalOf(res);
    const after = optionalIntQuery(req.query.after, 'after', 0);
    const waitMs = Math.min(
      HEAD_WAIT_MAX_MS,
      optionalIntQuery(req.query.waitMs, 'waitMs', 0) ?? HEAD_WAIT_MAX_MS,
    );
    const headNow = async (): Promise<{ definitionVersion: number; versionId: string }> => {
      const active = await authority.active(p.tenant);
      return { definitionVersion: active.definitionVersion, versionId: active.definition.versionId };
    };
    let head = await headNow();
    if (after !== undefined && head.definitionVersion === after) {
      const gone = new AbortController();
      res.on('close', () => gone.abort());
      const until = performance.now() + waitMs;
      for (let left = waitMs; head.definitionVersion === after && left > 0 && !gone.signal.aborted;) {
        const ms = Math.min(HEAD_RECHECK_MS, left);
        await (headBell?.wait(p.tenant, ms, gone.signal) ?? new Promise<void>((r) => setTimeout(r, ms)));
        if (gone.signal.aborted) return; // the caller left, or the server is closing: read nothing more
        head = await headNow();
        left = until - performance.now();
      }
      if (gone.signal.aborted) return;
    }
    res.json(head);
  };
}

/** How many person ids one GET /people may name. */
export const MAX_PEOPLE_PER_CALL = 200;

export interface AgentSideRouterDeps {
  readonly verifier: TokenVerifier;
  readonly taskPins: TaskPinReader;
  /** The rules in force at a version (the embedded authority's, or a remote one's over HTTP). */
  readonly rulesInForce: Authority['rulesInForce'];
  /** §13.1 dry runs against the corpus this agent keeps, under the authority's active version. */
  readonly dryRun?: LessonDryRun;
  /** GET /senders, from the corpus this agent keeps. */
  readonly senders?: SendersView;
  /** AUTHORITY_URL, named when a caller posts here what only the authority takes (a lesson, a rollback). */
  readonly authorityUrl?: string;
  /**
   * §14: POST /erase, forwarded to the authority with the caller's own Authorization (its token is
   * the authority's, not this agent's), then this agent's stores erased (http/remote-erase.ts).
   */
  readonly erase?: (authorization: string | undefined, body: unknown) => Promise<unknown>;
  /**
   * §13.1: POST /lessons, checked against this agent's corpus and then forwarded to the
   * authority with the caller's own Authorization (http/forwarded-lesson.ts).
   */
  readonly lesson?: (authorization: string | undefined, body: unknown) => Promise<unknown>;
  readonly log?: FaultLog;
  /** Largest JSON body accepted, in bytes. Default 1 MiB. */
  readonly maxBodyBytes?: number;
}

/**
 * The authority calls an agent whose authority is another process (§12.1) answers itself, since
 * it holds what they need: GET /rules-in-force (the agent holds the tasks and their pins, so "which
 * rules were in force for task X" stays one call, §13.4), POST /lessons:dry-run (the agent holds
 * the corpus of messages it has read, §13.1), POST /lessons (checked against that corpus, then
 * forwarded) and POST /erase (forwarded, then the agent's own copies erased, §14). Mount it at AUTHORITY_API_PATH.
 */
export function createAgentSideRouter(deps: AgentSideRouterDeps): Router {
  const router = express.Router();
  // Only these routes are served here; every other authority path is the authority's (404 here, not 401).
  router.get(
    '/rules-in-force',
    bearerAuth(deps.verifier),
    requireRole('read'),
    rulesInForceHandler(deps.taskPins, deps.rulesInForce),
  );
  router.post(
    '/lessons\\:dry-run',
    bearerAuth(deps.verifier),
    requireRole('teach'),
    express.json({ limit: deps.maxBodyBytes ?? 1024 * 1024 }),
    dryRunHandler(deps.dryRun),
  );
  router.get('/senders', bearerAuth(deps.verifier), requireRole('read'), sendersHandler(deps.senders));
  const erase = deps.erase;
  if (erase !== undefined) {
    // §14: no bearerAuth here: the token is the authority's, which authorizes the erase itself.
    router.post('/erase', express.json({ limit: deps.maxBodyBytes ?? 1024 * 1024 }), async (req, res) => {
      res.json(await erase(req.headers.authorization, req.body));
    });
  }
  const lesson = deps.lesson;
  if (lesson !== undefined) {
    // No bearerAuth here either: the token is the authority's, checked with it first.
    router.post('/lessons', express.json({ limit: deps.maxBodyBytes ?? 1024 * 1024 }), async (req, res) => {
      res.json(await lesson(req.headers.authorization, req.body));
    });
  }
  // §12.1: writes go to the authority, never to an agent that resolves definitions from it.
  router.all(['/lessons', '/rollback', '/revert', '/erase'], (req) => {
    const where = deps.authorityUrl ?? 'the authority this agent resolves definitions from (AUTHORITY_URL)';
    throw new DomainError(
      'NOT_FOUND',
      `This agent does not keep definitions: its authority is ${where}. Send ${req.method} ${AUTHORITY_API_PATH}${req.path} there` +
        (deps.authorityUrl === undefined ? '.' : `: ${deps.authorityUrl}${AUTHORITY_API_PATH}${req.path}.`),
    );
  });
  router.use(notFoundHandler());
  router.use(errorHandler(deps.log ?? consoleFaultLog));
  return router;
}

function dryRunHandler(dryRun: LessonDryRun | undefined): RequestHandler {
  return async (req, res) => {
    const p = principalOf(res);
    const lesson = parseLesson(req.body);
    if (dryRun === undefined) {
      throw new DomainError(
        'NOT_FOUND',
        'This authority has no corpus to dry-run lessons against. Post the lesson to /authority/v1/lessons instead.',
      );
    }
    res.json(await dryRun(p.tenant, p, lesson));
  };
}

/** Most senders one GET /senders lists (and its default). */
export const MAX_SENDERS = 500;
const DEFAULT_SENDERS = 200;

/** GET /senders?collection=customers&limit=200: who writes for whom, and what rests on it. */
function sendersHandler(senders: SendersView | undefined): RequestHandler {
  return async (req, res) => {
    const p = principalOf(res);
    const collection = optionalStringQuery(req.query.collection, 'collection');
    const raw = optionalStringQuery(req.query.limit, 'limit');
    const limit = raw === undefined ? DEFAULT_SENDERS : Number(raw);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SENDERS) {
      throw new DomainError(
        'REQUEST_MALFORMED',
        `?limit= must be a whole number from 1 to ${MAX_SENDERS} (got "${raw ?? ''}").`,
        { details: { fields: ['limit'] } },
      );
    }
    if (senders === undefined)
      throw new DomainError(
        'NOT_FOUND',
        'This authority keeps no mail, so it has no senders: ask the agent.',
      );
    const view = await senders(p.tenant, collection, limit);
    if (view === null)
      throw new DomainError(
        'NOT_FOUND',
        `No collection "${collection ?? ''}" keeps a sender record here; leave ?collection= out for the default.`,
      );
    res.json(view);
  };
}

function rulesInForceHandler(
  taskPins: TaskPinReader,
  rulesInForce: Authority['rulesInForce'],
): RequestHandler {
  return async (req, res) => {
    const p = principalOf(res);
    const taskId = optionalStringQuery(req.query.taskId, 'taskId');
    const versionId = optionalStringQuery(req.query.versionId, 'versionId');
    if ((taskId === undefined) === (versionId === undefined)) {
      throw new DomainError(
        'REQUEST_MALFORMED',
        'Name exactly one of ?taskId=<task id> or ?versionId=<sha256:…>.',
        {
          details: { fields: ['taskId', 'versionId'] },
        },
      );
    }
    if (taskId !== undefined) {
      const pin = await taskPins.pinOf(p.tenant, taskId);
      if (pin === null) {
        throw new DomainError(
          'NOT_FOUND',
          `There is no task "${taskId}" pinned to a definition in this tenant. Check the task id.`,
        );
      }
      const rules = await rulesInForce(p.tenant, pin.versionId);
      res.json({ taskId, definitionVersion: pin.definitionVersion, versionId: pin.versionId, rules });
      return;
    }
    res.json({ versionId, rules: await rulesInForce(p.tenant, versionId!) });
  };
}
