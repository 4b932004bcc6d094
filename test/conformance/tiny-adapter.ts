/**
 * The kit's adapter for the tiny expense agent (tiny-agent.ts): its undecidable input is an expense
 * from a vendor nobody taught; lessons go by the card's Teach method (no `teach` here), and it
 * keeps no history the kit could read, so those checks are skipped.
 */
import type { ConformanceAdapter, Question, Wire } from '../../conformance/src/adapter.ts';
import { TINY_EXTENSION } from './tiny-agent.ts';

const vendor = (id: string): string => `Vendor ${id}`;

function versionOf(task: Wire): string | undefined {
  for (const a of task?.artifacts ?? [])
    for (const p of a?.parts ?? []) {
      const read: unknown = p?.data?.versionId;
      if (typeof read === 'string') return read;
    }
  const pin: unknown = task?.metadata?.[TINY_EXTENSION]?.versionId;
  return typeof pin === 'string' ? pin : undefined;
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
};

export default tinyAdapter;
