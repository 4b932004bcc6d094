// Invariant (issue 16, §10.2, §13.3): any lesson value, for every registered learnable — wrong types, huge strings, regex syntax soup, Unicode edge cases — is learned, unchanged, or refused with the learnable's reason (a DomainError a person can read), never an internal error or a crash; and a refused value never changes the active version.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoTenant } from '../../src/domain/authority/index.ts';
import type { DirectoryImport } from '../../src/domain/authority/index.ts';
import { isDomainError } from '../../src/domain/errors.ts';
import { DEMO_DIRECTORY_FILE } from '../../src/main.ts';
import { openCore, type Core } from './knowledge-harness.ts';

const DANA = 'dana@warehouse.example';
let core: Core;
const directory = JSON.parse(readFileSync(DEMO_DIRECTORY_FILE, 'utf8')) as DirectoryImport;
beforeAll(async () => {
  core = await openCore({ tenant: 'demo' });
  await ensureDemoTenant(core.authority, directory, { tenant: core.tenant });
});
afterAll(() => core.close());

/** Strings a hostile or careless teacher types: regex soup, Unicode edge cases, huge ones. */
const nasty = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: fc.constantFrom(...'()[]{}*+?|^$\\.-,:=!<>/'.split('')), maxLength: 30 }),
  fc.constantFrom(
    '(a+)+$',
    '(?<=x)y',
    '\\',
    '[',
    '(?i)billing',
    'a{99999}',
    '\u0000',
    '\uD800',
    '\u202Eevil',
    'e\u0301',
    '__proto__',
    'constructor',
    '',
    ' ',
    '.*',
  ),
  fc.integer({ min: 50_000, max: 300_000 }).map((n) => 'x'.repeat(n)),
);
const anything: fc.Arbitrary<unknown> = fc.oneof(
  nasty,
  fc.jsonValue({ maxDepth: 3 }),
  fc.constant(null),
  fc.integer(),
  fc.array(nasty, { maxLength: 3 }),
);

describe('random lesson values for every learnable', () => {
  it('are learned, unchanged or refused with a reason; a refused one never moves the version', async () => {
    const descriptors = core.authority.descriptors();
    expect(descriptors.length).toBeGreaterThanOrEqual(3);
    // Seeds: the demo directory's own values per collection (opaque here, §9: copied, never read),
    // mutated field by field — a suffix (usually a new, valid lesson), a hostile value, a key removed.
    const seeds = new Map<string, { entry: string; value: Record<string, unknown> }[]>();
    for (const [collection, entries] of Object.entries(directory.collections))
      seeds.set(
        collection,
        Object.entries(entries).flatMap(([entry, values]) =>
          values.map((value) => ({ entry, value: { ...value } })),
        ),
      );
    const mutated = (seed: { entry: string; value: Record<string, unknown> }) =>
      fc
        .record({
          key: fc.constantFrom(...Object.keys(seed.value)),
          how: fc.constantFrom('suffix', 'hostile', 'drop', 'same', 'extra'),
          suffix: fc.stringMatching(/^[a-z]{1,8}$/),
          hostile: anything,
          entry: fc.oneof(fc.constant(seed.entry), fc.constant(seed.entry), nasty),
        })
        .map(({ key, how, suffix, hostile, entry }) => {
          const value: Record<string, unknown> = { ...seed.value };
          const v = value[key];
          if (how === 'suffix') value[key] = typeof v === 'string' ? `${v}${suffix}` : suffix;
          if (how === 'hostile') value[key] = hostile;
          if (how === 'drop') delete value[key];
          if (how === 'extra') value[suffix] = hostile;
          return { entry, value };
        });
    const lesson = fc.constantFrom(...descriptors).chain((descriptor) =>
      fc.record({
        descriptor: fc.constant(descriptor),
        lesson: fc.oneof(
          fc.constantFrom(...(seeds.get(descriptor.collection) ?? [])).chain(mutated),
          fc.record({
            entry: nasty,
            value: fc.dictionary(
              fc.oneof(fc.constantFrom('pattern', 'where', 'label', 'column', 'cue'), nasty),
              anything,
              {
                maxKeys: 4,
              },
            ),
          }),
        ),
      }),
    );
    const outcomes = { learned: 0, unchanged: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(lesson, async ({ descriptor, lesson: { entry, value } }) => {
        const before = (await core.authority.active(core.tenant)).definition.versionId;
        try {
          const r = await core.authority.absorb(core.tenant, core.teacher, {
            collection: descriptor.collection,
            entry,
            value,
            taughtBy: DANA,
          });
          const after = (await core.authority.active(core.tenant)).definition.versionId;
          if (r.learned) {
            outcomes.learned++;
            expect(after).not.toBe(before);
          } else {
            outcomes.unchanged++;
            expect(after).toBe(before);
          }
          expect(typeof r.describes).toBe('string');
        } catch (e) {
          if (!isDomainError(e) || e.code === 'INTERNAL') throw e;
          outcomes.refused++;
          expect(e.message.length).toBeGreaterThan(20);
          expect(e.message).not.toMatch(/undefined|\[object Object\]|TypeError|stack/);
          expect((await core.authority.active(core.tenant)).definition.versionId).toBe(before);
        }
      }),
      { numRuns: 250, seed: Number(process.env.FC_SEED ?? Date.now() % 2 ** 31) },
    );
    // the generator reaches each outcome (else the property proves little)
    expect(outcomes.refused).toBeGreaterThan(0);
    expect(outcomes.learned + outcomes.unchanged).toBeGreaterThan(0);
  }, 60_000);
});
