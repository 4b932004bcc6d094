/**
 * One message read under one definition version (§11): whose it is (customers), what kind (kinds),
 * and the fields of each CSV manifest (mappings). The reading records the versionId and
 * definitionVersion it was made under, and for every matched mark who taught it and when (§13.4).
 *
 * Pure: the matcher for the version, the learnables and a person-id resolver are passed in. Read
 * only; asking and proposing are the triage service's (suggest.ts).
 */
import type { Definition } from '../definitions/definition.ts';
import type { Learnable, LearnableSettings } from '../learnables/learnable.ts';
import type { MailMessage } from '../mail/mail-message.ts';
import type { Matcher } from './definition-marks.ts';
import { readCustomers } from './read-customers.ts';
import { readKinds } from './read-kinds.ts';
import { readManifests } from './read-manifest.ts';
import type { ResolvePerson } from './read-marked.ts';
import type { CollectionReading, MessageReading } from './reading.ts';

export const CUSTOMERS = 'customers';
export const KINDS = 'kinds';
export const MAPPINGS = 'mappings';

export function readMessage(
  definition: Definition,
  definitionVersion: number,
  matcher: Matcher,
  message: MailMessage,
  learnables: readonly Learnable[],
  settings: LearnableSettings,
  resolvePerson: ResolvePerson,
): MessageReading {
  const hits = matcher.match(message);
  const find = (c: string): Learnable | undefined => learnables.find((l) => l.collection === c);
  const marked = (c: string, read: typeof readCustomers): CollectionReading => {
    const learnable = find(c);
    if (learnable === undefined) {
      return { collection: c, settled: false, reads: `This agent has no ${c} to read.`, candidates: [] };
    }
    return read({ learnable, entries: definition.collections.get(c), hits, settings, resolvePerson });
  };
  return {
    versionId: definition.versionId,
    definitionVersion,
    customer: marked(CUSTOMERS, readCustomers),
    kind: marked(KINDS, readKinds),
    manifests: readManifests({
      learnable: find(MAPPINGS),
      entries: definition.collections.get(MAPPINGS),
      message,
    }),
  };
}
