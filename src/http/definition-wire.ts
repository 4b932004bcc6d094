/**
 * The JSON shape of a definition on the wire (/authority/v1/definition and /versions/:id), shared by
 * the authority API and the remote definition source so both ends agree by construction.
 * Entry content stays opaque (§9): it is copied, never read.
 *
 * Names are data (issue 12.3): collection and entry names become keys of null-prototype objects, so
 * an entry named `__proto__` or `constructor` is an own key like any other, on both ends.
 */
import type { Definition, PinnedDefinition, VersionId } from '../domain/definitions/index.ts';
import { deepFreeze, isPlainObject, type JsonObject } from '../domain/json.ts';
import type { EntryContent } from '../domain/learnables/index.ts';

/** `collections`: collection -> entry name -> entry content (owned by the collection's learnable). */
export interface WireDefinition {
  readonly versionId: VersionId;
  readonly collections: Readonly<Record<string, Readonly<Record<string, EntryContent>>>>;
}

export interface WireActiveDefinition extends WireDefinition {
  readonly definitionVersion: number;
}

export function definitionToWire(definition: Definition): WireDefinition {
  const collections = namesAsKeys<Record<string, EntryContent>>();
  for (const [name, entries] of definition.collections) {
    const out = namesAsKeys<EntryContent>();
    for (const [entry, content] of entries) out[entry] = content;
    collections[name] = out;
  }
  return { versionId: definition.versionId, collections };
}

/** An object whose keys are names from users: no prototype, so no name reaches one (§9, issue 12.3). */
function namesAsKeys<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

export function activeToWire(pinned: PinnedDefinition): WireActiveDefinition {
  return { definitionVersion: pinned.definitionVersion, ...definitionToWire(pinned.definition) };
}

/** Rebuild a frozen Definition from its wire form; throws a plain Error on a shape it cannot read. */
export function definitionFromWire(json: unknown): Definition {
  if (!isPlainObject(json) || typeof json.versionId !== 'string' || !isPlainObject(json.collections)) {
    throw new Error('definitionFromWire: expected { versionId: string, collections: object }');
  }
  const collections = new Map<string, ReadonlyMap<string, EntryContent>>();
  for (const [name, entries] of Object.entries(json.collections)) {
    if (!isPlainObject(entries)) throw new Error(`definitionFromWire: collection "${name}" is not an object`);
    const map = new Map<string, EntryContent>();
    for (const [entry, content] of Object.entries(entries)) {
      if (!isPlainObject(content))
        throw new Error(`definitionFromWire: entry "${name}/${entry}" is not an object`);
      map.set(entry, deepFreeze(content as JsonObject));
    }
    collections.set(name, map);
  }
  return Object.freeze({ versionId: json.versionId, collections });
}
