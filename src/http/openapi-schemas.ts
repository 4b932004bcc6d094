/**
 * The wire of /authority/v1 and /inbound/v1 as zod schemas: every request body the routes accept
 * and every answer they give, with one documented example each. openapi.ts turns them into the
 * OpenAPI 3.1 description (z.toJSONSchema), and test/integration/openapi.test.ts sends each example
 * to a running server and validates the answers against these schemas, so they cannot drift.
 *
 * Answers that carry a learnable's own data (a lesson value, a reading, a dry-run report) are open
 * objects here: their content is the learnable's (§9), declared on the card, not in this API.
 */
import { z } from 'zod';
import { ERROR_CODES } from '../domain/errors.ts';

const versionId = z
  .string()
  .regex(/^sha256:[0-9a-f]{64}$/)
  .meta({ example: 'sha256:3b1f…' });
const definitionVersion = z
  .number()
  .int()
  .min(0)
  .meta({ description: 'The activation number (1, 2, …): history shows it.' });
const taughtBy = z.string().min(1).meta({ description: 'The person the write is for (§9).' });
const reason = z.string().optional();

export const ErrorBody = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES),
      message: z
        .string()
        .meta({ description: 'For the person who sent the request: what was wrong and what to do.' }),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
  })
  .meta({ id: 'Error' });

export const WhoAmI = z
  .object({
    tenant: z.string(),
    principal: z.string(),
    kind: z.enum(['person', 'application', 'service', 'operator']),
    roles: z.array(z.enum(['read', 'teach', 'admin'])),
  })
  .meta({ id: 'WhoAmI' });

export const Descriptors = z
  .object({
    learnables: z.array(
      z.looseObject({
        collection: z.string(),
        entry: z.string(),
        teaches: z.string(),
        how: z.string(),
        decidedBy: z.enum(['rules', 'model', 'hybrid']),
        lessonFields: z.array(z.looseObject({ name: z.string() })),
      }),
    ),
  })
  .meta({ id: 'Descriptors' });

export const Lesson = z
  .object({
    collection: z.string().min(1),
    entry: z.string().min(1),
    value: z
      .record(z.string(), z.unknown())
      .meta({ description: 'Opaque to the API: the learnable judges it (§9).' }),
    taughtBy,
    reason,
  })
  .meta({ id: 'Lesson' });

export const LessonResult = z
  .object({
    learned: z.boolean(),
    describes: z.string(),
    definitionVersion,
    versionId: versionId.optional(),
    previousVersionId: versionId.optional(),
    alreadyRead: z
      .object({ matches: z.number().int(), total: z.number().int(), refiled: z.number().int() })
      .optional()
      .meta({
        description:
          'How many messages already read the lesson matches, of how many kept, and how many it re-filed because the lesson chose to (§13.1).',
      }),
  })
  .meta({ id: 'LessonResult' });

export const DryRunReport = z.looseObject({}).meta({
  id: 'DryRunReport',
  description: 'How many messages already read the lesson would match, and which would change hands (§13.1).',
});

export const Senders = z
  .object({
    collection: z.string(),
    senders: z.array(
      z.object({
        sender: z.string().meta({ description: 'An address, or @ and a domain.' }),
        readAs: z.array(
          z.object({ entry: z.string(), label: z.string(), messages: z.number().int(), lastAt: z.string() }),
        ),
        settlesAlone: z.boolean(),
        reads: z.string(),
        lessons: z.array(
          z.object({
            activation: z.number().int(),
            entry: z.string(),
            label: z.string(),
            describes: z.string(),
            taughtBy: z.string(),
            at: z.string(),
          }),
        ),
      }),
    ),
  })
  .meta({
    id: 'Senders',
    description:
      'Issue 38: every sender, what its mail was read or answered as, whether a message carrying only that sender settles, and the lessons resting on it.',
  });

const Writer = z.looseObject({ principal: z.string(), kind: z.string(), tokenId: z.string().nullable() });

export const History = z
  .object({
    history: z.array(
      z.looseObject({
        definitionVersion,
        versionId,
        action: z.string(),
        taughtBy: z.string(),
        at: z.string(),
        tombstoned: z.boolean(),
        writer: Writer.optional(),
      }),
    ),
  })
  .meta({ id: 'History' });

export const Head = z.object({ definitionVersion, versionId }).meta({ id: 'Head' });

export const Definition = z
  .looseObject({
    definitionVersion: definitionVersion.optional(),
    versionId,
    collections: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'Definition' });

export const Rollback = z
  .object({
    to: definitionVersion.meta({
      description: 'A definitionVersion (the number history shows), not a versionId.',
    }),
    taughtBy,
    reason,
  })
  .meta({ id: 'Rollback' });

export const Revert = z
  .object({
    activation: z
      .number()
      .int()
      .min(1)
      .meta({ description: 'The definitionVersion of the activation to take back.' }),
    taughtBy,
    reason,
  })
  .meta({ id: 'Revert' });

export const Erase = z.object({ identifier: z.string().min(1), taughtBy, reason }).meta({ id: 'Erase' });

export const ActivationResult = z
  .object({ definitionVersion, versionId, previousVersionId: versionId.nullable(), describes: z.string() })
  .meta({ id: 'ActivationResult' });

export const EraseResult = z
  .looseObject({
    activated: ActivationResult.nullable(),
    tombstonedVersions: z.array(versionId),
    peopleForgotten: z.number().int().min(0),
    stores: z.array(z.looseObject({})),
  })
  .meta({ id: 'EraseResult' });

export const RulesInForce = z
  .object({
    taskId: z.string().optional(),
    definitionVersion: definitionVersion.optional(),
    versionId,
    rules: z.array(
      z.looseObject({
        collection: z.string(),
        entry: z.string(),
        describes: z.string(),
        activation: z.number().int(),
        taughtBy: z.string(),
        via: z.string().nullable(),
        at: z.string(),
      }),
    ),
  })
  .meta({ id: 'RulesInForce' });

export const People = z
  .object({ people: z.array(z.object({ id: z.string(), handle: z.string().nullable() })) })
  .meta({ id: 'People' });

export const Entries = z
  .object({
    collection: z.string(),
    definitionVersion,
    total: z.number().int().min(0),
    entries: z.array(z.object({ name: z.string(), label: z.string() })),
  })
  .meta({ id: 'Entries' });

export const InboundAccepted = z
  .object({
    status: z.enum(['accepted', 'duplicate']),
    taskId: z.string(),
    state: z.string(),
  })
  .meta({ id: 'InboundAccepted' });

export const PostmarkInbound = z
  .looseObject({
    From: z.string().optional(),
    To: z.string().optional(),
    Subject: z.string().optional(),
    MessageID: z.string().optional(),
    TextBody: z.string().optional(),
    RawEmail: z.string().optional(),
  })
  .meta({
    id: 'PostmarkInbound',
    description: "Postmark's inbound webhook JSON (RawEmail when 'include raw email' is on).",
  });
