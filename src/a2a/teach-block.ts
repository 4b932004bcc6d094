/**
 * The §8 teach block as it goes on the wire, under the extension URI in a question's metadata.
 * Emitted only to a client that activated the extension (§7); the caller decides that.
 *
 * Enforced here, whatever the triage service proposed: `collection` names a declared collection,
 * `lessonFields` repeat the card's fields, and the keys of `suggested` are a subset of their names
 * (§8 MUST); a suggestion that breaks the subset rule is dropped rather than sent.
 */
import type { LearnableDescriptor } from '../domain/learnables/index.ts';
import type { TeachBlock } from '../domain/triage/index.ts';

export function teachBlockJson(
  block: TeachBlock,
  descriptors: readonly LearnableDescriptor[],
): Record<string, unknown> | null {
  const descriptor = descriptors.find((d) => d.collection === block.collection);
  if (descriptor === undefined) return null; // §8: MUST name a collection declared on the card
  const names = new Set(descriptor.lessonFields.map((f) => f.name));
  const out: Record<string, unknown> = {
    collection: block.collection,
    entries: [...block.entries],
  };
  const suggested = block.suggested;
  if (
    suggested !== undefined &&
    Object.keys(suggested).length > 0 &&
    Object.keys(suggested).every((k) => names.has(k))
  ) {
    out.suggested = { ...suggested };
    if (block.suggestionLabel !== undefined) out.suggestionLabel = block.suggestionLabel;
  }
  out.lessonFields = descriptor.lessonFields.map((f) => ({
    ...f,
    ...(f.choices === undefined ? {} : { choices: [...f.choices] }),
  }));
  return out;
}
