/**
 * The kit's adapter for an agent whose learnable is not about who sent a message: the test-only
 * `units` learnable (test/fourth-learnable/), which is taught what unit a written symbol means,
 * with the fields `symbol` and `system`. Its input settles customer and kind and leaves one
 * quantity's symbol unknown (a new one per id); lessons, show-back, versions and rollback go
 * through the same server as the default adapter's, so those are reused.
 */
import { createHash } from 'node:crypto';
import { triageAdapter } from '../../conformance/adapters/learnables-triage.ts';
import type { ConformanceAdapter, Question } from '../../conformance/src/adapter.ts';

/** Five letters from the id: a symbol no unit is known as. */
export function symbolFor(id: string): string {
  const bytes = createHash('sha256').update(id).digest();
  return [...bytes.subarray(0, 5)].map((b) => String.fromCharCode(65 + (b % 26))).join('');
}

/** The symbol the teach block suggests (the one written), or the one the input was made with. */
function symbolOf(q: Question): string {
  const suggested: unknown = q.teach?.suggested?.symbol;
  return typeof suggested === 'string' ? suggested : symbolFor(q.id);
}

export function unitsAdapter(): ConformanceAdapter {
  return {
    ...triageAdapter(),
    name: 'units (test-only learnable)',
    prepare: () => [
      {
        collection: 'units',
        entry: 'kilogram',
        value: { symbol: 'kg', system: 'metric' },
        reason: 'known unit',
      },
      {
        collection: 'units',
        entry: 'pound',
        value: { symbol: 'lb', system: 'imperial' },
        reason: 'known unit',
      },
    ],
    undecidable: (id) => ({
      parts: [
        {
          data: {
            from: 'Northgate Ops <ops@northgatemotors.example>',
            to: ['imports@warehouse.example'],
            subject: 'Pre-alert NGM-PO-12345',
            messageId: `${id}@units.example`,
            body: `Gross weight 1,200 ${symbolFor(id)}.`,
          },
        },
      ],
    }),
    answer: () => ({ parts: [{ data: { unit: 'kilogram' } }] }),
    lesson: (q) => ({
      collection: 'units',
      entry: 'kilogram',
      value: { symbol: symbolOf(q), system: 'metric' },
      reason: 'conformance: the shipper writes kilograms this way',
    }),
    refusedLesson: (q) => ({
      collection: 'units',
      entry: 'kilogram',
      value: { symbol: symbolOf(q), system: 'imperial' },
      reason: 'conformance: kilogram is not imperial',
    }),
  };
}
