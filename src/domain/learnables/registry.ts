/**
 * The one explicit list of learnables this agent declares (§6.1, §6.2), in declaration order:
 * customers, kinds, mappings, then any the composition adds (a learnable is a deployment, §9).
 * Everything that needs a learnable asks here by collection name.
 */
import { createCustomersLearnable } from './customers/customers.ts';
import { createKindsLearnable } from './kinds/kinds.ts';
import type { Learnable } from './learnable.ts';
import { createMappingsLearnable } from './mappings/mappings.ts';

export function createLearnables(extra: readonly Learnable[] = []): readonly Learnable[] {
  const all = [createCustomersLearnable(), createKindsLearnable(), createMappingsLearnable(), ...extra];
  const seen = new Set<string>();
  for (const l of all) {
    // §6.2: a collection name is unique within a declaration.
    if (seen.has(l.collection)) throw new Error(`two learnables declare the collection "${l.collection}"`);
    seen.add(l.collection);
  }
  return Object.freeze(all);
}

/** The learnable owning `collection`, or undefined when none is declared under that name. */
export function learnableFor(learnables: readonly Learnable[], collection: string): Learnable | undefined {
  return learnables.find((l) => l.collection === collection);
}
