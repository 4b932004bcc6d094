/**
 * A compact Aho-Corasick automaton over UTF-16 code units, for the mark prefilter (§13.3).
 *
 * Keys are ASCII strings already folded by `foldCodeUnit` (lower-case); the text is folded code unit
 * by code unit while scanning, so it is never copied or lower-cased as a whole. It owns finding every
 * occurrence of every key and nothing else: which mark a key stands for is the caller's business.
 *
 * Layout: typed arrays only (first child / next sibling, failure and dictionary links), children in
 * character order; the root and its children get dense transition tables because most steps start
 * there. npm AC packages measured 0.1–7 MB/s here (see the performance note); this runs at tens of MB/s.
 */
import { foldCodeUnit, isFoldedAscii } from './atoms.ts';

/** Cells of full transition rows kept (4 bytes each). */
const MAX_GOTO_CELLS = 2_000_000;
/** Set on a transition whose target ends a key; the node number is the bits below it. */
const OUTPUT_FLAG = 1 << 30;
const NODE_MASK = OUTPUT_FLAG - 1;

export interface AhoCorasick {
  readonly keyCount: number;
  readonly nodeCount: number;
  /**
   * Calls `onHit(key, end)` for every occurrence of every key in `text`, `end` being the index of its
   * last code unit; hits come in increasing `end` order.
   */
  scan(text: string, onHit: (key: number, end: number) => void): void;
  /**
   * Every occurrence in `text`, as `scan` reports them, written into buffers the automaton reuses:
   * hit i is key `keys[i]` ending at `ends[i]`, for i < `count`. Valid until the next call.
   */
  hits(text: string): HitList;
}

export interface HitList {
  readonly count: number;
  readonly keys: Int32Array;
  readonly ends: Int32Array;
}

/**
 * Builds the automaton for `keys` (non-empty ASCII strings, folded; duplicates allowed). At most
 * `maxRowCells` (default {@link MAX_GOTO_CELLS}) cells of full transition rows are made.
 */
export function buildAhoCorasick(
  keys: readonly string[],
  options: { readonly maxRowCells?: number } = {},
): AhoCorasick {
  return runSteps(buildAhoCorasickSteps(keys, options));
}

/** Runs a step generator (see `buildAhoCorasickSteps`) to its end, without pausing. */
export function runSteps<T>(steps: Generator<void, T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done === true) return r.value;
  }
}

/** Iterations of a build loop between two pauses of a step generator. */
const STEP = 4096;

/** The breadth-first pass's state (see `visitBreadthFirst`). */
interface Bfs {
  head: number;
  tail: number;
  readonly rows: number;
  readonly width: number;
  readonly firstChild: Int32Array;
  readonly nextSibling: Int32Array;
  readonly symbol: Uint8Array;
  readonly keyAt: Int32Array;
  readonly order: Int32Array;
  readonly numberOf: Int32Array;
  readonly fail: Int32Array;
  readonly dictionary: Int32Array;
  readonly gotoTable: Int32Array;
  // By number (see the build): what the scan keeps.
  readonly keyOf: Int32Array;
  readonly nextOutput: Int32Array;
  readonly firstOf: Int32Array;
  readonly childCount: Uint8Array;
  readonly symbolAt: Uint8Array;
  readonly failOf: Int32Array;
  readonly outputs: Uint8Array;
}

/**
 * Numbers the nodes queued up to `limit`, resolves their failure links and fills their rows (see
 * the build). A module-level function, not a closure made per build, so its optimised code carries
 * over from one compile to the next (a fresh closure starts cold, which made this the slowest step).
 */
function visitBreadthFirst(b: Bfs, limit: number): void {
  const {
    rows,
    width,
    firstChild,
    nextSibling,
    symbol,
    keyAt,
    order,
    numberOf,
    fail,
    dictionary,
    gotoTable,
    keyOf,
    nextOutput,
    firstOf,
    childCount,
    symbolAt,
    failOf,
    outputs,
  } = b;
  let head = b.head;
  let tail = b.tail;
  for (; head < tail && head < limit; head++) {
    const u = order[head] as number;
    firstOf[head] = firstChild[u] === -1 ? -1 : tail;
    let children = 0;
    for (let v = firstChild[u] as number; v !== -1; v = nextSibling[v] as number) {
      let vf = 0;
      if (u !== 0) {
        const s = symbol[v] as number;
        let f = fail[u] as number;
        for (;;) {
          const n = numberOf[f] as number;
          if (n < rows) {
            vf = order[(gotoTable[n * width + s] as number) & NODE_MASK] as number;
            break;
          }
          const c = childIn(firstChild, nextSibling, symbol, f, s);
          if (c !== -1) {
            vf = c;
            break;
          }
          f = fail[f] as number;
        }
      }
      fail[v] = vf;
      const d = (keyAt[vf] as number) !== -1 ? vf : (dictionary[vf] as number);
      dictionary[v] = d;
      numberOf[v] = tail;
      const key = keyAt[v] as number;
      keyOf[tail] = key;
      symbolAt[tail] = symbol[v] as number;
      failOf[tail] = numberOf[vf] as number; // shallower, so numbered already
      nextOutput[tail] = d === -1 ? -1 : (numberOf[d] as number);
      outputs[tail] = key !== -1 || d !== -1 ? 1 : 0;
      order[tail++] = v;
      children++;
    }
    childCount[head] = children;
    if (head < rows) {
      const base = head * width;
      if (u !== 0) {
        const failBase = (numberOf[fail[u] as number] as number) * width;
        // copyWithin, not a loop: a plain loop was a little faster once optimised, but a compile
        // runs mostly before that (at 1,000 marks the build took 38–57 ms with the loop, 18–34 ms
        // with copyWithin).
        gotoTable.copyWithin(base, failBase, failBase + width);
      }
      for (let c = firstChild[u] as number; c !== -1; c = nextSibling[c] as number)
        gotoTable[base + (symbol[c] as number)] =
          (numberOf[c] as number) |
          ((keyAt[c] as number) !== -1 || (dictionary[c] as number) !== -1 ? OUTPUT_FLAG : 0);
    }
  }
  b.head = head;
  b.tail = tail;
}

/** The child of `node` on symbol `s` (siblings are in symbol order), or -1. */
function childIn(
  firstChild: Int32Array,
  nextSibling: Int32Array,
  symbol: Uint8Array,
  node: number,
  s: number,
): number {
  for (let c = firstChild[node] as number; c !== -1; c = nextSibling[c] as number) {
    const cs = symbol[c] as number;
    if (cs === s) return c;
    if (cs > s) return -1;
  }
  return -1;
}

/** Calls `run` on [0, count) in ranges of {@link STEP}, pausing after each. */
function* chunks(count: number, run: (from: number, to: number) => void): Generator<void, void> {
  for (let from = 0; from < count; from += STEP) {
    run(from, Math.min(count, from + STEP));
    yield;
  }
}

/**
 * `buildAhoCorasick` as a generator that pauses (yields) every few thousand iterations of its
 * loops, so that a caller may build a large automaton in slices without blocking the event loop.
 */
export function* buildAhoCorasickSteps(
  keys: readonly string[],
  options: { readonly maxRowCells?: number } = {},
): Generator<void, AhoCorasick> {
  // In a generator of its own, whose scope (the build's worst-case arrays) ends with it: the scan's
  // closures keep this one alive.
  const trie = yield* buildTrie(keys);
  const { nodes, duplicates, symbolOf, symbols } = trie;
  // Let go below once the scan has what it needs (the trie object itself keeps none of them).
  let { firstChild, nextSibling, symbol, keyAt } = trie;
  trie.firstChild = trie.nextSibling = trie.keyAt = new Int32Array(0);
  trie.symbol = new Uint8Array(0);
  // Text code unit -> symbol, folding A-Z, KELVIN SIGN and LONG S the way re2 (?i) does.
  const fold = (c: number): number => {
    const f = foldCodeUnit(c);
    return f < 128 ? (symbolOf[f] as number) : 0;
  };
  const asciiSymbol = new Uint8Array(128);
  for (let c = 0; c < 128; c++) asciiSymbol[c] = fold(c);
  const kelvinSymbol = fold(0x212a);
  const longSSymbol = fold(0x017f);

  const width = symbols + 1;

  // Breadth-first renumbering: a node's number is its place in breadth-first order, so the nodes the
  // scan visits most (the shallow ones) have the lowest numbers, and the first `rows` of them have a
  // full transition row (failure links resolved) at `number * width` in `gotoTable`. A transition's
  // value carries OUTPUT_FLAG when its target ends a key (itself or along its dictionary chain), so
  // the scan loads one cell per code unit. A node's failure target comes earlier, so has its row
  // first; a row is that row with the node's own children written over it.
  const rows = Math.min(nodes, Math.max(1, Math.floor((options.maxRowCells ?? MAX_GOTO_CELLS) / width)));
  const gotoTable = new Int32Array(rows * width);
  let order = new Int32Array(nodes); // number -> trie node
  let numberOf = new Int32Array(nodes); // trie node -> number
  let fail = new Int32Array(nodes); // trie nodes
  let dictionary = new Int32Array(nodes).fill(-1); // trie nodes
  // Everything the scan needs, by number, filled in as nodes are numbered; the trie's own arrays
  // are then let go (at 100k marks they were ~12 MB more). Breadth-first order numbers a node's
  // children one after the other, in symbol order: number n's children are firstOf[n] ..
  // firstOf[n] + childCount[n] - 1. Per number also: the key it ends (or -1), the next number on
  // its dictionary chain (or -1), whether a key ends there or along that chain, its symbol and its
  // failure target. Number 0 is the root: no key, no symbol, its own failure target.
  const keyOf = new Int32Array(nodes).fill(-1);
  const nextOutput = new Int32Array(nodes).fill(-1);
  const firstOf = new Int32Array(nodes);
  const childCount = new Uint8Array(nodes);
  const symbolAt = new Uint8Array(nodes);
  const failOf = new Int32Array(nodes);
  const outputs = new Uint8Array(nodes);
  const bfs: Bfs = {
    keyOf,
    nextOutput,
    firstOf,
    childCount,
    symbolAt,
    failOf,
    outputs,
    head: 0,
    tail: 1,
    rows,
    width,
    firstChild,
    nextSibling,
    symbol,
    keyAt,
    order,
    numberOf,
    fail,
    dictionary,
    gotoTable,
  };
  while (bfs.head < bfs.tail) {
    visitBreadthFirst(bfs, bfs.head + STEP);
    yield;
  }
  // The scan's closures keep this scope alive: drop the trie's arrays.
  firstChild = nextSibling = keyAt = order = numberOf = fail = dictionary = new Int32Array(0);
  symbol = new Uint8Array(0);
  // The transition from a number without a row: its own child, or its failure target's transition.
  const slowStep = (state: number, s: number): number => {
    let n = state;
    for (;;) {
      if (n < rows) return gotoTable[n * width + s] as number;
      const first = firstOf[n] as number;
      for (let c = first, end = first + (childCount[n] as number); c < end; c++) {
        const cs = symbolAt[c] as number;
        if (cs === s) return c | ((outputs[c] as number) === 1 ? OUTPUT_FLAG : 0);
        if (cs > s) break;
      }
      n = failOf[n] as number;
    }
  };
  const hasDuplicates = duplicates.length > 0;

  let hitKeys = new Int32Array(256);
  let hitEnds = new Int32Array(256);
  const list = { count: 0, keys: hitKeys, ends: hitEnds };

  const run = (text: string, onHit: ((key: number, end: number) => void) | null): void => {
    // Locals, not closure variables, in the hot loop.
    const ascii = asciiSymbol;
    const table = gotoTable;
    const rowCount = rows;
    const w = width;
    const length = text.length;
    let state = 0;
    let count = 0;
    for (let i = 0; i < length; i++) {
      const c = text.charCodeAt(i);
      const s = c < 128 ? (ascii[c] as number) : c === 0x212a ? kelvinSymbol : c === 0x017f ? longSSymbol : 0;
      if (s === 0) {
        state = 0;
        continue;
      }
      const v = state < rowCount ? (table[state * w + s] as number) : slowStep(state, s);
      state = v & NODE_MASK;
      if (v < OUTPUT_FLAG) continue;
      let out = (keyOf[state] as number) !== -1 ? state : (nextOutput[state] as number);
      while (out !== -1) {
        const k = keyOf[out] as number;
        const same = hasDuplicates ? duplicates[k] : undefined;
        if (onHit !== null) {
          onHit(k, i);
          if (same !== undefined) for (const d of same) onHit(d, i);
        } else {
          const need = count + 1 + (same?.length ?? 0);
          if (need > hitKeys.length) {
            const grown = Math.max(hitKeys.length * 2, need);
            const keysNext = new Int32Array(grown);
            keysNext.set(hitKeys);
            const endsNext = new Int32Array(grown);
            endsNext.set(hitEnds);
            hitKeys = keysNext;
            hitEnds = endsNext;
          }
          hitKeys[count] = k;
          hitEnds[count++] = i;
          if (same !== undefined)
            for (const d of same) {
              hitKeys[count] = d;
              hitEnds[count++] = i;
            }
        }
        out = nextOutput[out] as number;
      }
    }
    list.count = count;
    list.keys = hitKeys;
    list.ends = hitEnds;
  };

  return {
    keyCount: keys.length,
    nodeCount: nodes,
    scan(text, onHit) {
      run(text, onHit);
    },
    hits(text) {
      run(text, null);
      return list;
    },
  };
}

/** The trie of `keys` (see `insertBuckets`) and its alphabet, in steps like the build's. */
function* buildTrie(keys: readonly string[]): Generator<
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
