/**
 * One message read under one definition version (§11): every registered learnable that has a
 * reader reads its collection, in an order where each reads after the collections it declared it
 * uses (`Reader.reads`), and the readings are kept in declaration order. The reading records the
 * versionId and definitionVersion it was made under; readers record who taught each matched mark
 * and when (§13.4).
 *
 * Pure: the matcher for the version, the learnables and a person-id resolver are passed in. Names
 * no collection. Read only; asking and proposing are the triage service's, through the readers.
 */
import type { Definition } from '../definitions/index.ts';
import { DomainError } from '../errors.ts';
import type { Learnable, LearnableSettings } from '../learnables/index.ts';
import type { Reading, ResolvePerson, SenderRecord } from '../learnables/index.ts';
import type { MailMessage } from '../mail/index.ts';
import type { Matcher } from './definition-marks.ts';
import type { MessageReading } from './reading.ts';

export function readMessage(
  definition: Definition,
  definitionVersion: number,
  matcher: Matcher,
  message: MailMessage,
  learnables: readonly Learnable[],
  settings: LearnableSettings,
  resolvePerson: ResolvePerson,
  record?: SenderRecord,
): MessageReading {
  const hits = matcher.match(message);
  const made = new Map<string, Reading>();
  for (const learnable of readingOrder(learnables)) {
    const reader = learnable.reader!;
    const earlier = new Map<string, Reading>();
    for (const c of reader.reads) {
      const r = made.get(c);
      if (r !== undefined) earlier.set(c, r);
    }
    made.set(
      learnable.collection,
      reader.read({
        entries: definition.collections.get(learnable.collection),
        hits,
        message,
        settings,
        resolvePerson,
        earlier,
        ...(record === undefined ? {} : { record }),
      }),
    );
  }
  const readings = new Map<string, Reading>();
  for (const l of learnables) {
    const r = made.get(l.collection);
    if (r !== undefined) readings.set(l.collection, r);
  }
  const notes = message.attachments.flatMap((a) => (a.note === undefined ? [] : [a.note]));
  return {
    versionId: definition.versionId,
    definitionVersion,
    readings,
    ...(notes.length > 0 ? { notes } : {}),
  };
}

/** Whether a reading asked to be read again with the sender's track record. */
export function needsSenderRecord(reading: MessageReading): boolean {
  for (const r of reading.readings.values()) if (r.needsSenderRecord === true) return true;
  return false;
}

/**
 * The learnables that read, each after those it reads from (declaration order otherwise). A reader
 * naming a collection nobody reads simply gets no reading for it; a cycle is a fault of the
 * registry, refused with the collections named.
 */
export function readingOrder(learnables: readonly Learnable[]): readonly Learnable[] {
  const readers = learnables.filter((l) => l.reader !== undefined);
  const byCollection = new Map(readers.map((l) => [l.collection, l]));
  const out: Learnable[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (l: Learnable, path: readonly string[]): void => {
    const s = state.get(l.collection);
    if (s === 'done') return;
    if (s === 'visiting') {
      throw new DomainError(
        'INTERNAL',
        `the readers of ${[...path, l.collection].join(' -> ')} read each other in a circle; one of them must not read the other`,
      );
    }
    state.set(l.collection, 'visiting');
    for (const c of l.reader!.reads) {
      const dep = byCollection.get(c);
      if (dep !== undefined) visit(dep, [...path, l.collection]);
    }
    state.set(l.collection, 'done');
    out.push(l);
  };
  for (const l of readers) visit(l, []);
  return out;
}
