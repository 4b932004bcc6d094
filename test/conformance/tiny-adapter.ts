/**
 * The kit's adapter for the tiny expense agent (tiny-agent.ts): its undecidable input is an expense
 * from a vendor nobody taught; lessons go by the card's Teach method (no `teach` here); the history
 * and the rollback are the agent's own JSON-RPC methods. The agent names versions by
 * definitionVersion alone, and so does this adapter.
 */
import type {
  AdapterContext,
  ConformanceAdapter,
  HistoryEntry,
  Question,
  Wire,
} from '../../conformance/src/adapter.ts';
import { TINY_EXTENSION } from './tiny-agent.ts';

const vendor = (id: string): string => `Vendor ${id}`;

function versionOf(task: Wire): { definitionVersion: number } | undefined {
  for (const a of task?.artifacts ?? [])
    for (const p of a?.parts ?? []) {
      const read: unknown = p?.data?.definitionVersion;
      if (typeof read === 'number') return { definitionVersion: read };
    }
  const pin: unknown = task?.metadata?.[TINY_EXTENSION]?.definitionVersion;
  return typeof pin === 'number' ? { definitionVersion: pin } : undefined;
}

/** One of the agent's own JSON-RPC methods, on its card's interface. */
async function rpc(context: AdapterContext, method: string, params: Wire): Promise<Wire> {
  const url: string = context.card.supportedInterfaces[0].url;
  const answer = await context.call('POST', url, { jsonrpc: '2.0', id: 1, method, params });
  if (answer.body?.result === undefined)
    throw new Error(
      `${method} answered ${answer.status}: ${JSON.stringify(answer.body?.error ?? answer.body)}`,
    );
  return answer.body.result;
}

export const tinyAdapter: ConformanceAdapter = {
  name: 'expense filer (tiny agent, test-only)',
  undecidable: (id) => ({ parts: [{ data: { expense: { vendor: vendor(id), amount: '12.40' } } }] }),
  answer: () => ({ parts: [{ data: { entry: 'travel' } }] }),
  lesson: (q: Question) => ({
    collection: 'cost-centres',
    entry: 'travel',
    value: {
      vendor:
        typeof q.teach?.suggested?.vendor === 'string' ? (q.teach.suggested.vendor as string) : vendor(q.id),
    },
    reason: 'a taxi firm',
  }),
  refusedLesson: () => ({ collection: 'cost-centres', entry: 'travel', value: { vendor: '' } }),
  showBack: (task) => ({ parts: [{ data: { showBack: { taskId: task.id } } }] }),
  versionOf,
  history: async (context): Promise<HistoryEntry[]> =>
    (await rpc(context, 'expenses.History', {})).history as HistoryEntry[],
  async rollback(context, to): Promise<void> {
    await rpc(context, 'expenses.Rollback', {
      to: to.definitionVersion,
      taughtBy: context.taughtBy,
      reason: 'conformance: undo the lesson',
    });
  },
};

export default tinyAdapter;
