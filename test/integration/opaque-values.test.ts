// Invariant: the authority, the definitions and the store treat a lesson value as opaque: every learnable, whatever its value keys, goes through the identical code path, and none of that code names a value key (§9).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLearnables } from '../../src/domain/learnables/index.ts';
import { openCore, type Core } from './knowledge-harness.ts';

const TEACHER = 'dana@warehouse.example';

/** One usable lesson per declared collection; only the test knows the value keys. */
const SAMPLES: Record<string, { entry: string; value: Record<string, unknown> }> = {
  // Each asks to create its entry as its learnable declares (issue 12.3: no entry by accident).
  customers: {
    entry: 'northgate',
    value: { pattern: 'billing@origin\\.example', where: 'from', label: 'Northgate' },
  },
  kinds: {
    entry: 'pre-alert',
    value: { cue: 'pre-alert notification', where: 'subject', label: 'Pre-alert' },
  },
  mappings: { entry: 'waybill', value: { column: 'Air Waybill No', newField: 'yes' } },
};

describe('one code path for every learnable (§9)', () => {
  let core: Core;
  beforeEach(async () => {
    core = await openCore();
  });
  afterEach(async () => {
    await core.close();
  });

  it('has a sample for every declared collection', () => {
    expect(
      createLearnables()
        .map((l) => l.collection)
        .sort(),
    ).toEqual(Object.keys(SAMPLES).sort());
  });

  for (const [collection, sample] of Object.entries(SAMPLES)) {
    it(`drives ${collection} through absorb, idempotence, history, rules in force and revert (§9, §10.2, §13.4)`, async () => {
      const learnable = createLearnables().find((l) => l.collection === collection)!;
      const lesson = {
        collection,
        entry: sample.entry,
        value: sample.value,
        taughtBy: TEACHER,
        reason: 'seen on a manifest',
      };
      const first = await core.authority.absorb(core.tenant, core.teacher, lesson);
      expect(first.learned).toBe(true);
      expect(first.describes).toContain(learnable.describe(sample.value, sample.entry).split(',')[0]!);
      const again = await core.authority.absorb(core.tenant, core.teacher, lesson);
      expect(again).toMatchObject({ learned: false, definitionVersion: 1, versionId: first.versionId });

      const [row] = await core.authority.history(core.tenant);
      expect(row).toMatchObject({
        action: 'teach',
        collection,
        entry: sample.entry,
        value: sample.value,
        taughtBy: TEACHER,
      });
      const rules = await core.authority.rulesInForce(core.tenant, first.versionId!);
      expect(rules).toEqual([
        expect.objectContaining({ collection, entry: sample.entry, activation: 1, taughtBy: TEACHER }),
      ]);

      const undone = await core.authority.revert(core.tenant, core.teacher, {
        activation: 1,
        taughtBy: TEACHER,
      });
      expect(await core.authority.rulesInForce(core.tenant, undone.versionId)).toEqual([]);
    });
  }
});

const KEYS = ['pattern', 'where', 'column', 'cue'];
const DIRS = ['src/domain/authority', 'src/domain/definitions', 'src/store'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return p.endsWith('.ts') && !p.endsWith('.test.ts') ? [p] : [];
  });
}

/** Drop comments, so prose may mention the words; code may not name them as keys. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

describe('no value key is named outside the learnables (§9)', () => {
  it(`finds none of ${KEYS.join(', ')} as a string, property or object key in ${DIRS.join(', ')}`, () => {
    const alt = KEYS.join('|');
    const namings = [
      new RegExp(`(['"\`])(${alt})\\1`, 'g'), // 'pattern', "where", `cue`
      new RegExp(`\\.(${alt})\\b(?!\\s*\\()`, 'g'), // value.pattern (a method call such as a query builder's .where( is not a key)
      new RegExp(`\\b(${alt})\\s*\\??:`, 'g'), // { column: … }, pattern?: …
      new RegExp(`[{,]\\s*(${alt})\\s*(?=[,}=])`, 'g'), // const { cue } = value
    ];
    const hits: string[] = [];
    const files = DIRS.flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(5);
    for (const f of files) {
      const text = code(readFileSync(f, 'utf8'));
      for (const re of namings) for (const m of text.matchAll(re)) hits.push(`${f}: ${m[0]}`);
    }
    expect(hits).toEqual([]);
  });

  it('the check itself catches a key being named', () => {
    const sample = code("const x = value['pattern']; // fine: pattern in a comment\nreturn v.column;");
    expect(/(['"`])(pattern|where|column|cue)\1/.test(sample)).toBe(true);
    expect(/\.(pattern|where|column|cue)\b(?!\s*\()/.test(sample)).toBe(true);
  });
});
