/**
 * The trie of the Aho-Corasick automaton's keys (aho-corasick.ts), built in steps: keys bucketed by
 * their first two code units, each bucket sorted and inserted in code-unit order, and the alphabet
 * of the code units it holds.
 *
 * Owns: the trie and its alphabet. Does not own: failure links, rows or scanning (aho-corasick.ts).
 */
import { isFoldedAscii } from './fold.ts';
import { chunks, STEP } from './steps.ts';

/** The trie of `keys` (see `insertBuckets`) and its alphabet, in steps like the build's. */
export function* buildTrie(keys: readonly string[]): Generator<
  void,
  {
    firstChild: Int32Array;
    nextSibling: Int32Array;
    /** Each node's symbol (0 for the root). */
    symbol: Uint8Array;
    keyAt: Int32Array;
    nodes: number;
    duplicates: number[][];
    /** Code unit -> symbol, 0 for a code unit in no key. */
    symbolOf: Uint8Array;
    symbols: number;
  }
> {
  // One pass over the keys: their lengths, and buckets by their first two code units (each bucket
  // is sorted on its own, so that the build can pause between buckets).
  let totalLength = 0;
  let longestKey = 0;
  const buckets: (number[] | undefined)[] = new Array<number[] | undefined>(128 * 129);
  yield* chunks(keys.length, (from, to) => {
    for (let k = from; k < to; k++) {
      const key = keys[k] as string;
      if (!isFoldedAscii(key))
        throw new Error(`Aho-Corasick key "${key}" is not folded ASCII (or is empty).`);
      totalLength += key.length;
      if (key.length > longestKey) longestKey = key.length;
      const b = key.charCodeAt(0) * 129 + (key.length > 1 ? key.charCodeAt(1) + 1 : 0);
      (buckets[b] ??= []).push(k);
    }
  });

  const capacity = totalLength + 1;
  // Sized for the worst case (no shared prefixes), cut to the nodes made once the trie is built.
  const trie: Building = {
    keys,
    firstChild: new Int32Array(capacity).fill(-1),
    nextSibling: new Int32Array(capacity).fill(-1),
    symbol: new Uint8Array(capacity),
    keyAt: new Int32Array(capacity).fill(-1),
    lastChild: new Int32Array(capacity).fill(-1),
    path: new Int32Array(longestKey + 1),
    nodes: 1,
    previous: '',
    previousIndex: -1,
    duplicates: [],
  };
  for (let b = 0; b < buckets.length;) {
    b = insertBuckets(trie, buckets, b, STEP);
    yield;
  }
  const nodes = trie.nodes;

  const symbol = trie.symbol.slice(0, nodes);
  const { symbolOf, symbols } = numberSymbols(symbol, nodes);
  return {
    // Cut to the nodes made (at 100k marks about half the worst case).
    firstChild: trie.firstChild.slice(0, nodes),
    nextSibling: trie.nextSibling.slice(0, nodes),
    symbol,
    keyAt: trie.keyAt.slice(0, nodes),
    nodes,
    duplicates: trie.duplicates,
    symbolOf,
    symbols,
  };
}

/** The trie while keys are inserted (see `insertBuckets`); `symbol` holds code units until the end. */
interface Building {
  readonly keys: readonly string[];
  readonly firstChild: Int32Array;
  readonly nextSibling: Int32Array;
  readonly symbol: Uint8Array;
  readonly keyAt: Int32Array;
  readonly lastChild: Int32Array;
  /** The nodes along the previous key. */
  readonly path: Int32Array;
  nodes: number;
  previous: string;
  previousIndex: number;
  /** For the first of equal keys, the others. */
  readonly duplicates: number[][];
}

/**
 * Inserts the keys of buckets `from`, `from + 1`, … in code-unit order (equal keys adjacent, first
 * index first) until at least `budget` keys are in; returns the next bucket. The path of the
 * previous key is reused for the shared prefix and every new child is appended after its last
 * sibling, so siblings stay in code-unit order. A module-level function: a generator's own loops
 * are not optimised, and this one's optimised code carries over from one build to the next.
 */
function insertBuckets(
  t: Building,
  buckets: readonly (number[] | undefined)[],
  from: number,
  budget: number,
): number {
  const { keys, firstChild, nextSibling, symbol, keyAt, lastChild, path } = t;
  let nodes = t.nodes;
  let previous = t.previous;
  let previousIndex = t.previousIndex;
  let inserted = 0;
  let b = from;
  for (; b < buckets.length && inserted < budget; b++) {
    const list = buckets[b];
    if (list === undefined) continue;
    if (list.length > 1) list.sort((x, y) => byKey(keys, x, y));
    for (let j = 0; j < list.length; j++) {
      const k = list[j] as number;
      const key = keys[k] as string;
      if (key === previous) {
        (t.duplicates[previousIndex] ??= []).push(k);
        continue;
      }
      let shared = 0;
      const limit = Math.min(key.length, previous.length);
      while (shared < limit && key.charCodeAt(shared) === previous.charCodeAt(shared)) shared++;
      let node = path[shared] as number;
      for (let i = shared; i < key.length; i++) {
        const child = nodes++;
        symbol[child] = key.charCodeAt(i);
        const last = lastChild[node] as number;
        if (last === -1) firstChild[node] = child;
        else nextSibling[last] = child;
        lastChild[node] = child;
        node = child;
        path[i + 1] = child;
      }
      keyAt[node] = k;
      previous = key;
      previousIndex = k;
    }
    inserted += list.length;
  }
  t.nodes = nodes;
  t.previous = previous;
  t.previousIndex = previousIndex;
  return b;
}

/**
 * The alphabet: the code units on the trie's nodes, numbered from 1 in code-unit order (0: in no
 * key), so that siblings, inserted in code-unit order, are in symbol order too. `symbol` holds the
 * nodes' code units and is rewritten to their symbols; returns the numbering by code unit and
 * how many symbols there are.
 */
function numberSymbols(symbol: Uint8Array, nodes: number): { symbolOf: Uint8Array; symbols: number } {
  const symbolOf = new Uint8Array(128);
  for (let n = 1; n < nodes; n++) symbolOf[symbol[n] as number] = 1;
  let symbols = 0;
  for (let c = 0; c < 128; c++) if (symbolOf[c] !== 0) symbolOf[c] = ++symbols;
  for (let n = 1; n < nodes; n++) symbol[n] = symbolOf[symbol[n] as number] as number;
  return { symbolOf, symbols };
}

/** Code-unit order of keys x and y, then index order. */
function byKey(keys: readonly string[], x: number, y: number): number {
  const a = keys[x] as string;
  const c = keys[y] as string;
  return a < c ? -1 : a > c ? 1 : x - y;
}
