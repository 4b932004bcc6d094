// Invariant (issue 13): triage reads each registered learnable after the ones its reader declares it
// reads (`Reader.reads`), hands it their readings, keeps readings in declaration order, and refuses
// readers that read each other in a circle; it names no collection.
import { describe, expect, it } from 'vitest';
import type { Learnable, Reader, Reading } from '../learnables/index.ts';
import { mail } from '../../../test/support/definitions.ts';
import { readMessage, readingOrder } from './read-message.ts';

const seen: string[] = [];

function learnable(collection: string, reads: string[]): Learnable {
  const reader: Reader = {
    shownAs: collection,
    reads,
    read({ earlier }): Reading {
      seen.push(`${collection}<-[${[...earlier.keys()].join(',')}]`);
      return {
        collection,
        shownAs: collection,
        settled: true,
        winner: null,
        settledCount: 0,
        decision: null,
        likely: [],
        report: { earlier: [...earlier.keys()] },
        line: null,
      };
    },
  };
  return { collection, reader } as unknown as Learnable;
}

describe('the reading loop (Reader.reads)', () => {
  it('reads a collection after those it reads, and keeps declaration order', () => {
    seen.length = 0;
    const learnables = [learnable('b', ['a']), learnable('a', []), learnable('c', ['b', 'missing'])];
    const definition = { versionId: 'sha256:v', collections: new Map() };
    const r = readMessage(
      definition,
      1,
      { markCount: 0, match: () => [] },
      mail(),
      learnables,
      { identificationMargin: 0.5 },
      (id) => id,
    );
    expect(seen).toEqual(['a<-[]', 'b<-[a]', 'c<-[b]']);
    expect([...r.readings.keys()]).toEqual(['b', 'a', 'c']);
  });

  it('refuses readers that read each other in a circle, naming them', () => {
    expect(() => readingOrder([learnable('a', ['b']), learnable('b', ['a'])])).toThrow(/a -> b -> a/);
  });
});
