/**
 * Reading the domain's MessageReading (one reading per collection) in tests of this agent's own
 * learnables: the §11 report of its customers, kinds and mappings readings, as each reader made it.
 */
import type { CollectionReading, ManifestReading } from '../../src/domain/learnables/index.ts';
import type { MessageReading } from '../../src/domain/triage/index.ts';

/** The report of a collection that decides one entry per message. Throws when it was not read. */
export function decisionOf(reading: MessageReading, collection: string): CollectionReading {
  const r = reading.readings.get(collection);
  if (r === undefined)
    throw new Error(`no ${collection} reading in ${[...reading.readings.keys()].join(', ')}`);
  return r.report as CollectionReading;
}

export const customerOf = (reading: MessageReading): CollectionReading => decisionOf(reading, 'customers');
export const kindOf = (reading: MessageReading): CollectionReading => decisionOf(reading, 'kinds');

/** One reading per CSV manifest attached (empty when mappings were not read). */
export function manifestsOf(reading: MessageReading): readonly ManifestReading[] {
  return (reading.readings.get('mappings')?.report ?? []) as readonly ManifestReading[];
}
