// Invariant: the registry declares customers, kinds and mappings once each, in order, and every lesson of the demo directory is absorbable (§6.2).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { EntryContent } from './learnable.ts';
import { createLearnables, learnableFor } from './registry.ts';

describe('registry', () => {
  it('lists customers, kinds and mappings, each collection once (§6.2)', () => {
    const learnables = createLearnables();
    expect(learnables.map((l) => l.collection)).toEqual(['customers', 'kinds', 'mappings']);
    const descriptors = learnables.map((l) => l.descriptor({ identificationMargin: 0.5 }));
    expect(descriptors.map((d) => d.collection)).toEqual(['customers', 'kinds', 'mappings']);
  });

  it('finds a learnable by collection, and nothing for an undeclared one', () => {
    const learnables = createLearnables();
    expect(learnableFor(learnables, 'kinds')?.entryNoun).toBe('kind of message');
    expect(learnableFor(learnables, 'thresholds')).toBeUndefined();
  });

  it('absorbs every lesson of the demo directory', () => {
    const file = new URL('../../../fixtures/directory/demo.json', import.meta.url);
    const demo = JSON.parse(readFileSync(file, 'utf8')) as {
      collections: Record<string, Record<string, Record<string, unknown>[]>>;
    };
    const learnables = createLearnables();
    let activation = 0;
    for (const [collection, entries] of Object.entries(demo.collections)) {
      const l = learnableFor(learnables, collection);
      expect(l, collection).toBeDefined();
      for (const [entry, values] of Object.entries(entries)) {
        let content: EntryContent | undefined;
        for (const value of values) {
          const r = l!.absorb(entry, content, value, {
            activation: ++activation,
            taughtBy: 'person:demo',
            at: '2026-08-17T00:00:00.000Z',
          });
          expect(r.outcome, `${collection}/${entry} ${JSON.stringify(value)}: ${JSON.stringify(r)}`).toBe(
            'learned',
          );
          if (r.outcome === 'learned') content = r.content;
        }
      }
    }
  });
});
