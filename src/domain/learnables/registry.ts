/**
 * The one explicit list of learnables this agent declares (§6.1, §6.2), in declaration order:
 * customers, kinds, mappings. Everything that needs a learnable asks here by collection name.
 */
import { createCustomersLearnable } from './customers/customers.ts';
import { createKindsLearnable } from './kinds/kinds.ts';
import type { Learnable } from './learnable.ts';
import { createMappingsLearnable } from './mappings/mappings.ts';

export function createLearnables(): readonly Learnable[] {
  return Object.freeze([createCustomersLearnable(), createKindsLearnable(), createMappingsLearnable()]);
}

/** The learnable owning `collection`, or undefined when none is declared under that name. */
export function learnableFor(learnables: readonly Learnable[], collection: string): Learnable | undefined {
  return learnables.find((l) => l.collection === collection);
}
