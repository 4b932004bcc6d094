/**
 * The Merkle layout of a definition version (§10.3), shaped like git trees so unchanged entries
 * are shared between versions and a lesson writes only the objects on its changed path:
 *
 * - entry object: the entry's content, as canonical JSON;
 * - per collection, a tree: a node is a leaf `{entries: {name: entryHash}}` while its subtree holds
 *   at most LEAF_MAX entries, otherwise a branch `{count, children: {hexDigit: nodeHash}}` that
 *   splits its entries by the next hex digit of sha256(entry name). The shape depends only on the
 *   set of entries, so equal content always gives the same hashes;
 * - the root `{format: 1, collections: {name: treeHash}}` (empty collections are left out);
 * - versionId = "sha256:" + sha256(canonical JSON of the root).
 *
 * Pure functions over an ObjectReader. Does not own: what an entry means, nor storage.
 */
import { canonicalJson, deepFreeze, isPlainObject, type JsonValue } from '../json.ts';
import type { EntryContent } from '../learnables/index.ts';
import type { StoredObject } from './store.ts';
import type { Definition, VersionId } from './definition.ts';
import { rootHashOf, sha256Hex, versionIdOf } from './content-address.ts';
import type { ObjectReader } from './object-cache.ts';

/** A node holds its entries directly while there are at most this many. */
export const LEAF_MAX = 64;
const FORMAT = 1;
/** sha256 has 64 hex digits; deeper than that a node stays a leaf whatever its size. */
const MAX_DEPTH = 64;

export interface RootObject {
  readonly format: number;
  readonly collections: Readonly<Record<string, string>>;
}
interface LeafNode {
  readonly entries: Readonly<Record<string, string>>;
}
interface BranchNode {
  readonly count: number;
  readonly children: Readonly<Record<string, string>>;
}
type TreeNode = LeafNode | BranchNode;

/** One change to a version: set an entry's content, or remove the entry (`null`). */
export interface EntryChange {
  readonly collection: string;
  readonly entry: string;
  readonly content: EntryContent | null;
}

export interface BuiltVersion {
  readonly versionId: VersionId;
  readonly rootHash: string;
  /** Every object this version needed that its predecessor did not already reference. */
  readonly objects: readonly StoredObject[];
}

const EMPTY_ROOT_BODY = canonicalJson({ format: FORMAT, collections: {} });
/** The version of a tenant that has learned nothing. */
export const EMPTY_VERSION_ID: VersionId = versionIdOf(sha256Hex(EMPTY_ROOT_BODY));

export function emptyDefinition(): Definition {
  return Object.freeze({
    versionId: EMPTY_VERSION_ID,
    collections: Object.freeze(new Map()) as Definition['collections'],
  });
}

const nameHashes = new Map<string, string>();
function digitOf(name: string, depth: number): string {
  let h = nameHashes.get(name);
  if (h === undefined) {
    h = sha256Hex(name);
    if (nameHashes.size > 200_000) nameHashes.clear();
    nameHashes.set(name, h);
  }
  return h.charAt(depth);
}

class ObjectSink {
  readonly objects = new Map<string, string>();
  put(value: unknown): string {
    const body = canonicalJson(value);
    const hash = sha256Hex(body);
    this.objects.set(hash, body);
    return hash;
  }
}

function asRoot(v: JsonValue, hash: string): RootObject {
  if (isPlainObject(v) && v['format'] === FORMAT && isPlainObject(v['collections']))
    return v as unknown as RootObject;
  throw new Error(`object ${hash} is not a version root`);
}
function asNode(v: JsonValue, hash: string): TreeNode {
  if (
    isPlainObject(v) &&
    (isPlainObject(v['entries']) || (isPlainObject(v['children']) && typeof v['count'] === 'number'))
  ) {
    return v as unknown as TreeNode;
  }
  throw new Error(`object ${hash} is not a tree node`);
}
function isLeaf(n: TreeNode): n is LeafNode {
  return 'entries' in n;
}

/** The canonical tree for a set of entries (name -> entry hash) at `depth`; null when empty. */
function buildTree(entries: ReadonlyMap<string, string>, depth: number, sink: ObjectSink): string | null {
  if (entries.size === 0) return null;
  if (entries.size <= LEAF_MAX || depth >= MAX_DEPTH) {
    return sink.put({ entries: Object.fromEntries(entries) });
  }
  const groups = new Map<string, Map<string, string>>();
  for (const [name, hash] of entries) {
    const d = digitOf(name, depth);
    let g = groups.get(d);
    if (g === undefined) groups.set(d, (g = new Map<string, string>()));
    g.set(name, hash);
  }
  const children: Record<string, string> = {};
  for (const [d, g] of groups) children[d] = buildTree(g, depth + 1, sink) as string;
  return sink.put({ count: entries.size, children });
}

/** Every entry (name -> entry hash) under a node. */
async function collectEntries(hash: string, reader: ObjectReader, into: Map<string, string>): Promise<void> {
  const node = asNode(await reader.get(hash), hash);
  if (isLeaf(node)) {
    for (const [n, h] of Object.entries(node.entries)) into.set(n, h);
    return;
  }
  for (const child of Object.values(node.children)) await collectEntries(child, reader, into);
}

/** Apply changes (name -> entry hash, or null to remove) to the subtree at `hash`. */
async function updateTree(
  hash: string | undefined,
  depth: number,
  changes: ReadonlyMap<string, string | null>,
  reader: ObjectReader,
  sink: ObjectSink,
): Promise<{ hash: string | null; count: number; oldCount: number }> {
  if (hash === undefined) {
    const entries = new Map<string, string>();
    for (const [n, h] of changes) if (h !== null) entries.set(n, h);
    return { hash: buildTree(entries, depth, sink), count: entries.size, oldCount: 0 };
  }
  const node = asNode(await reader.get(hash), hash);
  if (isLeaf(node) || depth >= MAX_DEPTH) {
    const entries = new Map<string, string>();
    await collectEntries(hash, reader, entries);
    const oldCount = entries.size;
    for (const [n, h] of changes) {
      if (h === null) entries.delete(n);
      else entries.set(n, h);
    }
    return { hash: buildTree(entries, depth, sink), count: entries.size, oldCount };
  }
  const byDigit = new Map<string, Map<string, string | null>>();
  for (const [n, h] of changes) {
    const d = digitOf(n, depth);
    let g = byDigit.get(d);
    if (g === undefined) byDigit.set(d, (g = new Map<string, string | null>()));
    g.set(n, h);
  }
  const children: Record<string, string> = { ...node.children };
  let count = node.count;
  for (const [d, g] of byDigit) {
    const r = await updateTree(node.children[d], depth + 1, g, reader, sink);
    count += r.count - r.oldCount;
    if (r.hash === null) delete children[d];
    else children[d] = r.hash;
  }
  if (count <= LEAF_MAX) {
    // Collapse: a subtree this small is a leaf in the canonical shape.
    const entries = new Map<string, string>();
    // Some children were just built and exist only in the sink.
    for (const [h, body] of sink.objects) reader.remember(h, body);
    for (const child of Object.values(children)) await collectEntries(child, reader, entries);
    return { hash: buildTree(entries, depth, sink), count, oldCount: node.count };
  }
  return { hash: sink.put({ count, children }), count, oldCount: node.count };
}

/**
 * Build the version that results from applying `changes` to `previous` (null: the empty version).
 * Only the changed paths produce new objects; everything else is shared with `previous`.
 */
export async function buildVersion(
  previous: VersionId | null,
  changes: readonly EntryChange[],
  reader: ObjectReader,
): Promise<BuiltVersion> {
  const sink = new ObjectSink();
  const prevRoot: RootObject =
    previous === null || previous === EMPTY_VERSION_ID
      ? { format: FORMAT, collections: {} }
      : asRoot(await reader.get(rootHashOf(previous)), previous);

  const byCollection = new Map<string, Map<string, string | null>>();
  for (const c of changes) {
    let m = byCollection.get(c.collection);
    if (m === undefined) byCollection.set(c.collection, (m = new Map<string, string | null>()));
    m.set(c.entry, c.content === null ? null : sink.put(c.content));
  }
  const collections: Record<string, string> = { ...prevRoot.collections };
  for (const [name, m] of byCollection) {
    const r = await updateTree(prevRoot.collections[name], 0, m, reader, sink);
    if (r.hash === null) delete collections[name];
    else collections[name] = r.hash;
  }
  const rootHash = sink.put({ format: FORMAT, collections });
  for (const [h, body] of sink.objects) reader.remember(h, body);
  return {
    versionId: versionIdOf(rootHash),
    rootHash,
    objects: [...sink.objects].map(([hash, body]) => ({ hash, body })),
  };
}

/** Called for each entry read while loading (e.g. to let its learnable check the content). */
export type EntryCheck = (collection: string, entry: string, content: EntryContent, hash: string) => void;

/**
 * Load a whole version, level by level (one batched fetch per tree level, then one for the
 * entries), through the reader's cache. The result is deep-frozen.
 */
export async function loadDefinition(
  versionId: VersionId,
  reader: ObjectReader,
  check?: EntryCheck,
): Promise<Definition> {
  if (versionId === EMPTY_VERSION_ID) return emptyDefinition();
  const root = asRoot(await reader.get(rootHashOf(versionId)), versionId);
  type Pending = { collection: string; hash: string };
  let frontier: Pending[] = Object.entries(root.collections).map(([collection, hash]) => ({
    collection,
    hash,
  }));
  const found: { collection: string; name: string; hash: string }[] = [];
  while (frontier.length > 0) {
    const nodes = await reader.getMany(frontier.map((p) => p.hash));
    const next: Pending[] = [];
    for (const p of frontier) {
      const node = asNode(nodes.get(p.hash) as JsonValue, p.hash);
      if (isLeaf(node)) {
        for (const [name, hash] of Object.entries(node.entries))
          found.push({ collection: p.collection, name, hash });
      } else {
        for (const hash of Object.values(node.children)) next.push({ collection: p.collection, hash });
      }
    }
    frontier = next;
  }
  const contents = await reader.getMany(found.map((f) => f.hash));
  found.sort((a, b) =>
    a.collection === b.collection ? cmp(a.name, b.name) : cmp(a.collection, b.collection),
  );
  const collections = new Map<string, Map<string, EntryContent>>();
  for (const f of found) {
    const content = contents.get(f.hash);
    if (!isPlainObject(content)) throw new Error(`object ${f.hash} is not an entry`);
    check?.(f.collection, f.name, content, f.hash);
    let m = collections.get(f.collection);
    if (m === undefined) collections.set(f.collection, (m = new Map<string, EntryContent>()));
    m.set(f.name, content);
  }
  for (const m of collections.values()) Object.freeze(m);
  return Object.freeze({ versionId, collections: Object.freeze(collections) });
}

/** The definition that results from applying `changes` to a loaded `base` (no store reads). */
export function applyChanges(
  base: Definition,
  changes: readonly EntryChange[],
  versionId: VersionId,
): Definition {
  const collections = new Map<string, Map<string, EntryContent>>();
  for (const [name, m] of base.collections) collections.set(name, m as Map<string, EntryContent>);
  const touched = new Set<string>();
  for (const c of changes) {
    let m = collections.get(c.collection);
    if (!touched.has(c.collection)) {
      m = new Map(m ?? []);
      collections.set(c.collection, m);
      touched.add(c.collection);
    }
    if (m === undefined) continue;
    if (c.content === null) m.delete(c.entry);
    else m.set(c.entry, deepFreeze(c.content));
  }
  for (const name of touched) {
    const m = collections.get(name) as Map<string, EntryContent>;
    if (m.size === 0) {
      collections.delete(name);
      continue;
    }
    const sorted = new Map([...m].sort((a, b) => cmp(a[0], b[0])));
    collections.set(name, Object.freeze(sorted));
  }
  const sortedCollections = new Map([...collections].sort((a, b) => cmp(a[0], b[0])));
  return Object.freeze({ versionId, collections: Object.freeze(sortedCollections) });
}

/** What a walk over stored versions reports for each object it reaches. */
export interface VersionWalk {
  /** Objects (roots, nodes, entries) whose content mentions the target, directly or below. */
  readonly mentioning: ReadonlySet<string>;
  /** Every object reachable from the versions walked. */
  readonly reachable: ReadonlySet<string>;
  /** The roots walked that mention the target. */
  readonly mentioningVersions: ReadonlySet<VersionId>;
}

/**
 * Walk versions (each distinct object once) and find which objects mention something.
 * `entryMentions` judges an entry's content; `nameMentions` judges an entry's name (names live in
 * tree nodes, so a node naming the target mentions it). Used by erase (§14).
 */
export async function walkVersions(
  versionIds: readonly VersionId[],
  reader: ObjectReader,
  entryMentions: (collection: string, content: EntryContent) => boolean,
  nameMentions: (name: string) => boolean,
): Promise<VersionWalk> {
  const memo = new Map<string, boolean>(); // key: collection \0 hash (a node's meaning depends on its collection)
  const reachable = new Set<string>();
  const mentioning = new Set<string>();
  const mentioningVersions = new Set<VersionId>();

  async function visitEntry(collection: string, hash: string): Promise<boolean> {
    const key = `${collection}\0${hash}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    reachable.add(hash);
    const content = await reader.get(hash);
    const m = isPlainObject(content) && entryMentions(collection, content);
    memo.set(key, m);
    if (m) mentioning.add(hash);
    return m;
  }
  async function visitNode(collection: string, hash: string): Promise<boolean> {
    const key = `${collection}\0${hash}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    reachable.add(hash);
    const node = asNode(await reader.get(hash), hash);
    let m = false;
    if (isLeaf(node)) {
      for (const [name, h] of Object.entries(node.entries)) {
        if (nameMentions(name)) m = true;
        if (await visitEntry(collection, h)) m = true;
      }
    } else {
      for (const h of Object.values(node.children)) if (await visitNode(collection, h)) m = true;
    }
    memo.set(key, m);
    if (m) mentioning.add(hash);
    return m;
  }
  for (const v of versionIds) {
    if (v === EMPTY_VERSION_ID) continue;
    const rootHash = rootHashOf(v);
    reachable.add(rootHash);
    const root = asRoot(await reader.get(rootHash), rootHash);
    let m = false;
    for (const [collection, h] of Object.entries(root.collections))
      if (await visitNode(collection, h)) m = true;
    if (m) {
      mentioning.add(rootHash);
      mentioningVersions.add(v);
    }
  }
  return { mentioning, reachable, mentioningVersions };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
