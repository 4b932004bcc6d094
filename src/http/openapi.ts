/**
 * GET /authority/v1/openapi.json: the OpenAPI 3.1 description of the authority API and the inbound
 * mail webhooks, built from the zod schemas of openapi-schemas.ts (z.toJSONSchema, JSON Schema
 * 2020-12 as OpenAPI 3.1 uses it) and the table of operations below, each with an example request.
 * Public, like the agent card: it describes the interface, not a tenant's data.
 *
 * test/integration/openapi.test.ts sends every example to a running server and checks each answer
 * against the schema documented for its status.
 */
import express, { type Router } from 'express';
import { z } from 'zod';
import * as S from './openapi-schemas.ts';

export const OPENAPI_PATH = '/openapi.json';

type Role = 'read' | 'teach' | 'admin' | 'webhook';

export interface Operation {
  readonly method: 'get' | 'post';
  /** OpenAPI path, with `{param}`. */
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly role: Role;
  readonly query?: Readonly<Record<string, { readonly description: string; readonly required?: boolean }>>;
  readonly request?: { readonly schema: z.ZodType; readonly contentType?: string };
  /** The example request: path and query parameters, and the body. */
  readonly example: {
    readonly path?: Readonly<Record<string, string>>;
    readonly query?: Readonly<Record<string, string>>;
    readonly body?: unknown;
  };
  /** Success status and schema; every operation may also answer the errors listed in `errors`. */
  readonly ok: { readonly status: number; readonly schema: z.ZodType };
  readonly errors: readonly number[];
}

const AUTH_ERRORS = [401, 403];
const SAMPLE_MAIL =
  'From: Billing <billing@origin.example>\r\nTo: imports@warehouse.example\r\nSubject: Pre-alert PA-2026-0902\r\n' +
  'Message-ID: <pa-0902@origin.example>\r\nDate: Tue, 01 Dec 2026 09:00:00 +0000\r\n\r\nPlease find the manifest attached.\r\n';

/** The lesson both the dry run and the lesson itself are documented with (§9). */
const LESSON_EXAMPLE = {
  collection: 'customers',
  entry: 'northgate',
  value: { pattern: 'billing@origin\\.example', where: 'from' },
  taughtBy: 'dana@warehouse.example',
  reason: 'Northgate billing sends the pre-alerts',
};

export const OPERATIONS: readonly Operation[] = [
  {
    method: 'get',
    path: '/authority/v1/whoami',
    operationId: 'whoami',
    summary: 'The tenant, principal, kind and roles of the bearer token.',
    role: 'read',
    example: {},
    ok: { status: 200, schema: S.WhoAmI },
    errors: [401],
  },
  {
    method: 'get',
    path: '/authority/v1/descriptors',
    operationId: 'descriptors',
    summary: 'The learnables, as the agent card declares them (§6.2).',
    role: 'read',
    example: {},
    ok: { status: 200, schema: S.Descriptors },
    errors: AUTH_ERRORS,
  },
  {
    method: 'post',
    path: '/authority/v1/lessons:dry-run',
    operationId: 'dryRunLesson',
    summary:
      'How many messages already read a lesson would match, and which would change hands (§13.1). Changes nothing.',
    role: 'teach',
    request: { schema: S.Lesson },
    example: { body: LESSON_EXAMPLE },
    ok: { status: 200, schema: S.DryRunReport },
    errors: [400, ...AUTH_ERRORS, 422],
  },
  {
    method: 'post',
    path: '/authority/v1/lessons',
    operationId: 'teach',
    summary:
      'Teach one lesson (§9); the answer is the LessonResult (§10.4). A value the learnable refuses is a 422 with its reason.',
    role: 'teach',
    request: { schema: S.Lesson },
    example: { body: LESSON_EXAMPLE },
    ok: { status: 200, schema: S.LessonResult },
    errors: [400, ...AUTH_ERRORS, 422],
  },
  {
    method: 'get',
    path: '/authority/v1/history',
    operationId: 'history',
    summary: 'Every activation, newest first: who taught what, why, when, and which token wrote it.',
    role: 'read',
    query: {
      limit: { description: 'At most this many (1 or more).' },
      beforeVersion: { description: 'Only activations before this definitionVersion.' },
    },
    example: { query: { limit: '5' } },
    ok: { status: 200, schema: S.History },
    errors: [400, ...AUTH_ERRORS],
  },
  {
    method: 'get',
    path: '/authority/v1/definition',
    operationId: 'definition',
    summary: 'The active definition: definitionVersion, versionId and every entry.',
    role: 'read',
    example: {},
    ok: { status: 200, schema: S.Definition },
    errors: AUTH_ERRORS,
  },
  {
    method: 'get',
    path: '/authority/v1/head',
    operationId: 'head',
    summary:
      'Only which version is active. With ?after=N a long-poll: answers once the active definitionVersion is not N, or after waitMs (what a remote agent follows to learn of a new activation).',
    role: 'read',
    query: {
      after: {
        description:
          'A definitionVersion the caller holds: the answer waits until the active one differs (0 or more).',
      },
      waitMs: { description: 'Longest wait with ?after=, in ms (0 to 30000; default 30000).' },
    },
    example: {},
    ok: { status: 200, schema: S.Head },
    errors: AUTH_ERRORS,
  },
  {
    method: 'get',
    path: '/authority/v1/versions/{versionId}',
    operationId: 'version',
    summary: 'Any version by its versionId (§10.3); 410 once erased.',
    role: 'read',
    example: { path: { versionId: 'sha256:…' } },
    ok: { status: 200, schema: S.Definition },
    errors: [...AUTH_ERRORS, 404, 410],
  },
  {
    method: 'get',
    path: '/authority/v1/rules-in-force',
    operationId: 'rulesInForce',
    summary: 'The rules a task was decided under (or a version holds), and who put them there (§13.4).',
    role: 'read',
    query: {
      taskId: { description: 'A task id (exactly one of taskId and versionId).' },
      versionId: { description: 'A versionId (sha256:…).' },
    },
    example: { query: { versionId: 'sha256:…' } },
    ok: { status: 200, schema: S.RulesInForce },
    errors: [400, ...AUTH_ERRORS, 404],
  },
  {
    method: 'get',
    path: '/authority/v1/senders',
    operationId: 'senders',
    summary:
      'Who writes for whom (issue 38): each sender (address or @domain), what its mail was read or answered as, whether it settles a message alone, and the lessons resting on it (each one activation to revert).',
    role: 'read',
    query: {
      collection: {
        description:
          'A collection whose learnable keeps a sender record (default: the first, customers here).',
      },
      limit: { description: 'At most this many senders, most mail first (1 to 500, default 200).' },
    },
    example: { query: { collection: 'customers', limit: '50' } },
    ok: { status: 200, schema: S.Senders },
    errors: [400, ...AUTH_ERRORS, 404],
  },
  {
    method: 'get',
    path: '/authority/v1/people',
    operationId: 'people',
    summary: 'The handle behind each person id in provenance (null once erased, §14).',
    role: 'read',
    query: { ids: { description: 'Comma-separated person ids (1 to 200).', required: true } },
    example: { query: { ids: 'person-unknown' } },
    ok: { status: 200, schema: S.People },
    errors: [400, ...AUTH_ERRORS],
  },
  {
    method: 'get',
    path: '/authority/v1/entries',
    operationId: 'entries',
    summary: "One collection's entries by name and label, searched.",
    role: 'read',
    query: {
      collection: { description: 'A collection the card declares.', required: true },
      q: { description: 'Text the name or label contains.' },
      limit: { description: 'Default 50, at most 500.' },
    },
    example: { query: { collection: 'customers', q: 'north' } },
    ok: { status: 200, schema: S.Entries },
    errors: [400, ...AUTH_ERRORS, 422],
  },
  {
    method: 'post',
    path: '/authority/v1/revert',
    operationId: 'revert',
    summary: 'Take back exactly what one activation added, as a new activation.',
    role: 'admin',
    request: { schema: S.Revert },
    example: { body: { activation: 2, taughtBy: 'dana@warehouse.example', reason: 'taught by mistake' } },
    ok: { status: 200, schema: S.ActivationResult },
    errors: [400, ...AUTH_ERRORS, 404, 409],
  },
  {
    method: 'post',
    path: '/authority/v1/rollback',
    operationId: 'rollback',
    summary:
      'Make an earlier version active again, as a new activation. `to` is a definitionVersion (the number history shows), not a versionId.',
    role: 'admin',
    request: { schema: S.Rollback },
    example: { body: { to: 2, taughtBy: 'dana@warehouse.example', reason: 'back to the taught version' } },
    ok: { status: 200, schema: S.ActivationResult },
    errors: [400, ...AUTH_ERRORS, 404],
  },
  {
    method: 'post',
    path: '/authority/v1/erase',
    operationId: 'erase',
    summary: 'Remove a personal identifier from every version, store and cache (§14).',
    role: 'admin',
    request: { schema: S.Erase },
    example: {
      body: {
        identifier: 'billing@origin.example',
        taughtBy: 'sam@warehouse.example',
        reason: 'erasure request',
      },
    },
    ok: { status: 200, schema: S.EraseResult },
    errors: [400, ...AUTH_ERRORS],
  },
  {
    method: 'post',
    path: '/inbound/v1/rfc822/{token}',
    operationId: 'inboundRfc822',
    summary:
      'Any relay: the raw message as the body. The token (16+ characters, INBOUND_WEBHOOKS) binds the URL to a tenant.',
    role: 'webhook',
    request: {
      schema: z.string().meta({ description: 'The RFC 822 message.' }),
      contentType: 'message/rfc822',
    },
    example: { path: { token: '<token>' }, body: SAMPLE_MAIL },
    ok: { status: 200, schema: S.InboundAccepted },
    errors: [401, 403, 406, 413, 503],
  },
  {
    method: 'post',
    path: '/inbound/v1/postmark/{token}',
    operationId: 'inboundPostmark',
    summary: "Postmark's inbound stream webhook.",
    role: 'webhook',
    request: { schema: S.PostmarkInbound },
    example: {
      path: { token: '<token>' },
      body: {
        From: 'billing@origin.example',
        To: 'imports@warehouse.example',
        Subject: 'Pre-alert PA-2026-0903',
        MessageID: 'pa-0903@origin.example',
        TextBody: 'Manifest attached.',
      },
    },
    ok: { status: 200, schema: S.InboundAccepted },
    errors: [401, 403, 503],
  },
];

const jsonSchema = (schema: z.ZodType): Record<string, unknown> =>
  z.toJSONSchema(schema, { target: 'draft-2020-12', unrepresentable: 'any', io: 'output' });

/** The OpenAPI 3.1 document. */
export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    const parameters = [
      ...[...op.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
        name: m[1],
        in: 'path',
        required: true,
        schema: { type: 'string' },
        ...(op.example.path?.[m[1]!] === undefined ? {} : { example: op.example.path[m[1]!] }),
      })),
      ...Object.entries(op.query ?? {}).map(([name, q]) => ({
        name,
        in: 'query',
        required: q.required === true,
        description: q.description,
        schema: { type: 'string' },
        ...(op.example.query?.[name] === undefined ? {} : { example: op.example.query[name] }),
      })),
    ];
    const responses: Record<string, unknown> = {
      [String(op.ok.status)]: {
        description: 'OK',
        content: { 'application/json': { schema: jsonSchema(op.ok.schema) } },
      },
    };
    for (const status of op.errors)
      responses[String(status)] = {
        description: 'An error, in words for the sender',
        content: { 'application/json': { schema: jsonSchema(S.ErrorBody) } },
      };
    paths[op.path] ??= {};
    paths[op.path]![op.method] = {
      operationId: op.operationId,
      summary: op.summary,
      ...(op.role === 'webhook'
        ? { security: [] }
        : { description: `Needs a bearer token with the \`${op.role}\` role (admin holds every role).` }),
      ...(parameters.length === 0 ? {} : { parameters }),
      ...(op.request === undefined
        ? {}
        : {
            requestBody: {
              required: true,
              content: {
                [op.request.contentType ?? 'application/json']: {
                  schema: jsonSchema(op.request.schema),
                  example: op.example.body,
                },
              },
            },
          }),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'learnables-triage authority API and inbound mail webhooks',
      version: '1',
      description:
        'The external authority of the A2A Learnables Extension (§12.1) and the webhooks that bring mail in. Errors are always {"error":{"code","message","details"?}} (docs/errors.md).',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security: [{ bearer: [] }],
    paths,
  };
}

/** Mount at AUTHORITY_API_PATH (before the router that requires a token). */
export function openApiRouter(): Router {
  const doc = JSON.stringify(openApiDocument());
  const router = express.Router();
  router.get(OPENAPI_PATH, (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.type('application/json').send(doc);
  });
  return router;
}
