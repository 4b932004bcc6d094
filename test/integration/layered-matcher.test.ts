// Invariant: a version's matcher layered over an earlier full compile gives exactly the hits of a full compile of that version, through lessons, reverts and rollbacks (§13.3; lesson to effect without recompiling the directory).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLearnables } from '../../src/domain/learnables/index.ts';
import type { MailMessage } from '../../src/domain/mail/index.ts';
import { compileMatcher } from '../../src/domain/matching/index.ts';
import { definitionMarks, createMatcherCache, type MarkHit } from '../../src/domain/triage/index.ts';
import { mail } from '../support/definitions.ts';
import { openCore, type Core } from './knowledge-harness.ts';

const learnables = createLearnables();
let core: Core;

beforeEach(async () => {
  core = await openCore();
});
afterEach(async () => {
  await core.close();
});

const teach = (entry: string, value: Record<string, unknown>, collection = 'customers') =>
  core.authority.absorb(core.tenant, core.teacher, {
    collection,
    entry,
    // Named, so a lesson for a new entry creates it (issue 12.3: no entry by accident).
    value: collection === 'mappings' ? value : { label: entry, ...value },
    taughtBy: 'dana@warehouse.example',
  });

const messages: MailMessage[] = Array.from({ length: 30 }, (_, i) =>
  mail({
    from: { address: `ops${i % 7}@cust${i % 11}.example`, name: `Ops ${i}` },
    subject: `${i % 3 === 0 ? 'INV' : 'Pre-alert'} PA-2026-${String(900 + i).padStart(4, '0')}`,
    body: `Shipment for Customer ${i % 13} Motors, ref HBL/2026/${String(400 + i).padStart(5, '0')}/A`,
  }),
);

const shape = (hits: readonly MarkHit[]) =>
  hits.map((h) => [h.mark.collection, h.mark.entry, h.mark.source, h.part, h.text].join(' | '));

async function expectSameAsFullCompile(cache: ReturnType<typeof createMatcherCache>): Promise<void> {
  const { definition } = await core.authority.active(core.tenant);
  const layered = cache.forDefinition(definition, learnables);
  const full = compileMatcher(definitionMarks(definition, learnables));
  for (const m of messages) expect(shape(layered.match(m))).toEqual(shape(full.match(m)));
}

describe('layered matchers (§13.3)', () => {
  it.each([256, 2])(
    'match exactly like a full compile after every change (re-base after %i entries)',
    async (maxLayeredEntries) => {
      const cache = createMatcherCache({ maxVersions: 4, maxLayeredEntries });
      for (let c = 0; c < 12; c++) {
        await teach(`cust${c}`, {
          label: `Customer ${c} Motors`,
          pattern: `@cust${c}\\.example`,
          where: 'from',
        });
      }
      await expectSameAsFullCompile(cache);
      const steps: (() => Promise<unknown>)[] = [
        () => teach('cust3', { pattern: 'Customer 3 Motors', where: 'body' }),
        () => teach('cust20', { label: 'Newcomer', pattern: 'PA-2026-0905', where: 'subject' }),
        () => teach('invoice', { cue: 'INV', where: 'subject' }, 'kinds'),
        () => teach('cust5', { pattern: 'HBL/2026/00405/A', where: 'any' }),
        () =>
          core.authority.revert(core.tenant, core.teacher, {
            activation: 13,
            taughtBy: 'dana@warehouse.example',
          }),
        () => teach('cust7', { pattern: 'ops1@cust7\\.example', where: 'from' }),
        () =>
          core.authority.rollback(core.tenant, core.teacher, { to: 14, taughtBy: 'dana@warehouse.example' }),
        () => teach('cust1', { pattern: 'Customer 1 Motors', where: 'body' }),
      ];
      for (const step of steps) {
        await step();
        await expectSameAsFullCompile(cache);
      }
    },
  );
});
