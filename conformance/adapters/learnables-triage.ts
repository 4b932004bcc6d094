/**
 * The adapter for learnables-triage, the kit's default and its worked example. An undecidable input
 * is a pre-alert from a sender nobody has taught (a new address per id); the answer and the lesson
 * name `northgate`, a customer of the demo tenant (`npm start` creates it on a first start). The
 * lesson is the teach block's own suggestion, the way most people confirm it. Lessons go to the
 * authority API (`POST /authority/v1/lessons`), which every topology serves: a split agent forwards
 * it to its authority. Versions, history and rollback are the authority's (docs/teaching.md).
 *
 * Agent and authority in two processes (docs/split-topology.md): set `AUTHORITY_URL` and
 * `AUTHORITY_TOKEN`, the variables the agent was started with. Lessons still go to the agent, with
 * the authority's token (it checks them against the mail it has read, then forwards them); history
 * and rollback go to the authority.
 */
import type {
  AdapterContext,
  ConformanceAdapter,
  HistoryEntry,
  Question,
  TeachOutcome,
  Wire,
} from '../src/adapter.ts';

const EXTENSION_URI = 'https://rsaxb.com/a2a/learnables/v1';
/** A customer of the demo tenant. */
const ENTRY = 'northgate';

const sender = (id: string): string => `ops-${id}@conformance-${id}.example`;

/** The definition version a task was decided on (its report) or is pinned to while it waits. */
function versionOf(task: Wire): { versionId?: string; definitionVersion?: number } | undefined {
  for (const artifact of task?.artifacts ?? []) {
    for (const part of artifact?.parts ?? []) {
      const d: Wire = part?.data;
      if (typeof d?.versionId === 'string' || typeof d?.definitionVersion === 'number')
        return { versionId: d.versionId, definitionVersion: d.definitionVersion };
    }
  }
  const pin: Wire = task?.metadata?.[EXTENSION_URI]?.pin;
  return pin === undefined
    ? undefined
    : { versionId: pin.versionId, definitionVersion: pin.definitionVersion };
}

/** This server's card: the extension declared with its `customers` learnable, taught a pattern and where to look. */
function recognises(card: Wire): boolean {
  const declaration: Wire = (card?.capabilities?.extensions ?? []).find(
    (e: Wire) => e?.uri === EXTENSION_URI,
  );
  const customers: Wire = (declaration?.params?.learnables ?? []).find(
    (l: Wire) => l?.collection === 'customers',
  );
  const fields = new Set(((customers?.lessonFields ?? []) as Wire[]).map((f) => f?.name));
  return fields.has('pattern') && fields.has('where');
}

export interface TriageAdapterOptions {
  /** The authority's base URL when it is not the agent (the split topology). Default: the agent. */
  readonly authorityUrl?: string | undefined;
  /** A token of the authority (`teach` and `admin` roles). Default: the kit's token. */
  readonly authorityToken?: string | undefined;
}

export function triageAdapter(options: TriageAdapterOptions = {}): ConformanceAdapter {
  /** A call of the authority API at `base` (the agent's or the authority's); `token: null` sends none. */
  const authority = (
    context: AdapterContext,
    at: 'agent' | 'authority',
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    token?: string | null,
  ): Promise<Wire> => {
    const base = at === 'authority' ? (options.authorityUrl ?? context.baseUrl) : context.baseUrl;
    return context.call(method, new URL(`/authority/v1${path}`, base).href, body, {
      token: token === undefined ? options.authorityToken : token,
    });
  };
  return {
    name: 'learnables-triage (demo tenant)',
    recognises,

    undecidable: (id) => ({
      parts: [
        {
          mediaType: 'application/json',
          data: {
            from: sender(id),
            to: ['imports@warehouse.example'],
            subject: `Pre-alert CK-${id}`,
            messageId: `${id}@conformance.example`,
            body: 'Please find the manifest attached.',
          },
        },
      ],
    }),

    answer: () => ({ parts: [{ data: { entry: ENTRY } }] }),

    lesson: (q: Question) => ({
      collection: 'customers',
      entry: ENTRY,
      // The suggestion, as a person confirms it; without a block, the sender typed as seen.
      value: q.teach?.suggested ?? { pattern: sender(q.id), where: 'from' },
      reason: 'conformance: this sender writes for Northgate',
    }),

    refusedLesson: () => ({
      collection: 'customers',
      entry: ENTRY,
      value: { pattern: 'billing@origin\\.example(', where: 'from' },
      reason: 'conformance: an unbalanced pattern',
    }),

    async teach(lesson, context, token): Promise<TeachOutcome> {
      const answer = await authority(context, 'agent', 'POST', '/lessons', lesson, token);
      if (answer.status === 200) return { ok: true, result: answer.body };
      return {
        ok: false,
        status: answer.status,
        reason: String(answer.body?.error?.message ?? JSON.stringify(answer.body)),
      };
    },

    showBack: (task) => ({ parts: [{ data: { recheck: { taskId: task.id } } }] }),

    versionOf,

    async history(context): Promise<HistoryEntry[]> {
      const answer = await authority(context, 'authority', 'GET', '/history?limit=50');
      if (answer.status !== 200) throw new Error(`GET /authority/v1/history answered ${answer.status}`);
      return answer.body.history;
    },

    async rollback(context, to): Promise<void> {
      const answer = await authority(context, 'authority', 'POST', '/rollback', {
        to: to.definitionVersion,
        taughtBy: context.taughtBy,
        reason: 'conformance: undo the lesson',
      });
      if (answer.status !== 200)
        throw new Error(
          `POST /authority/v1/rollback answered ${answer.status}: ${JSON.stringify(answer.body)}`,
        );
    },
  };
}

export default triageAdapter({
  authorityUrl: process.env.AUTHORITY_URL,
  authorityToken: process.env.AUTHORITY_TOKEN,
});
