/**
 * A compact Aho-Corasick automaton over UTF-16 code units, for the mark prefilter (§13.3).
 *
 * Keys are ASCII strings already folded by `foldCodeUnit` (lower-case); the text is folded code unit
 * by code unit while scanning, so it is never copied or lower-cased as a whole. It owns finding every
 * occurrence of every key and nothing else: which mark a key stands for is the caller's business.
 *
 * Layout: typed arrays only (first child / next sibling, failure and dictionary links), children in
 * character order; the root and its children get dense transition tables because most steps start
 * there. npm AC packages were far slower here (docs/matching.md).
 */
import { buildTrie } from './aho-trie.ts';
import { foldCodeUnit } from './fold.ts';
import { runSteps, STEP } from './steps.ts';
import { typedArrayBytes } from './matcher-bytes.ts';

/** Cells of full transition rows kept (4 bytes each). */
const MAX_GOTO_CELLS = 2_000_000;
/** Set on a transition whose target ends a key; the node number is the bits below it. */
const OUTPUT_FLAG = 1 << 30;
const NODE_MASK = OUTPUT_FLAG - 1;

export interface AhoCorasick {
  readonly keyCount: number;
  readonly nodeCount: number;
  /** Bytes of its tables and hit buffers now (matcher-bytes.ts). */
  byteLength(): number;
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

/** What the scan keeps, by node number (see the build). */
interface ScanTables {
  /** Numbers below this have a full transition row in `gotoTable`. */
  readonly rows: number;
  /** Cells per row: the symbols and 0 (in no key). */
  readonly width: number;
  readonly gotoTable: Int32Array;
  /** The key a number ends, or -1. */
  readonly keyOf: Int32Array;
  /** The next number on its dictionary chain, or -1. */
  readonly nextOutput: Int32Array;
  /** Its first child's number (children are numbered one after the other, in symbol order). */
  readonly firstOf: Int32Array;
  readonly childCount: Uint8Array;
  readonly symbolAt: Uint8Array;
  /** Its failure target's number. */
  readonly failOf: Int32Array;
  /** 1 when a key ends there or along its dictionary chain. */
  readonly outputs: Uint8Array;
}

function scanTables(nodes: number, rows: number, width: number): ScanTables {
  return {
    rows,
    width,
    gotoTable: new Int32Array(rows * width),
    keyOf: new Int32Array(nodes).fill(-1),
    nextOutput: new Int32Array(nodes).fill(-1),
    firstOf: new Int32Array(nodes),
    childCount: new Uint8Array(nodes),
    symbolAt: new Uint8Array(nodes),
    failOf: new Int32Array(nodes),
    outputs: new Uint8Array(nodes),
  };
}

/** The breadth-first pass's own state over the trie (see `visitBreadthFirst`), by trie node. */
interface Bfs {
  head: number;
  tail: number;
  readonly firstChild: Int32Array;
  readonly nextSibling: Int32Array;
  readonly symbol: Uint8Array;
  readonly keyAt: Int32Array;
  /** Number -> trie node. */
  readonly order: Int32Array;
  /** Trie node -> number. */
  readonly numberOf: Int32Array;
  readonly fail: Int32Array;
  readonly dictionary: Int32Array;
}

/**
 * Numbers the nodes queued up to `limit`, resolves their failure links and fills their rows and
 * scan tables `t` (see the build). A module-level function, not a closure made per build, so its
 * optimised code carries over from one compile to the next (a fresh closure starts cold, which
 * made this the slowest step).
 */
function visitBreadthFirst(b: Bfs, t: ScanTables, limit: number): void {
  const { firstChild, nextSibling, symbol, keyAt, order, numberOf, fail, dictionary } = b;
  const { rows, width, gotoTable, keyOf, nextOutput, firstOf, childCount, symbolAt, failOf, outputs } = t;
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
        // copyWithin, not a loop: a plain loop is a little faster once optimised, but a compile
        // runs mostly before that (docs/matching.md, "Cold code").
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

/** The transition from a number without a row: its own child, or its failure target's transition. */
function slowStep(t: ScanTables, state: number, s: number): number {
  const { rows, width, gotoTable, firstOf, childCount, symbolAt, failOf, outputs } = t;
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
  // Everything the scan needs, by number, filled in as nodes are numbered (ScanTables); the trie's
  // own arrays are then let go (at 100k marks they were ~12 MB more). Breadth-first order numbers a
  // node's children one after the other, in symbol order. Number 0 is the root: no key, no symbol,
  // its own failure target.
  const t = scanTables(nodes, rows, width);
  let bfs: Bfs | null = {
    head: 0,
    tail: 1,
    firstChild: trie.firstChild,
    nextSibling: trie.nextSibling,
    symbol: trie.symbol,
    keyAt: trie.keyAt,
    order: new Int32Array(nodes),
    numberOf: new Int32Array(nodes),
    fail: new Int32Array(nodes),
    dictionary: new Int32Array(nodes).fill(-1),
  };
  // The bfs object holds the trie's arrays now: let go of them once it is done.
  trie.firstChild = trie.nextSibling = trie.keyAt = new Int32Array(0);
  trie.symbol = new Uint8Array(0);
  while (bfs.head < bfs.tail) {
    visitBreadthFirst(bfs, t, bfs.head + STEP);
    yield;
  }
  // The scan's closures keep this scope alive: drop the trie's arrays.
  bfs = null;
  const { gotoTable, keyOf, nextOutput } = t;
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
      const v = state < rowCount ? (table[state * w + s] as number) : slowStep(t, state, s);
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
    byteLength: () => typedArrayBytes(t, asciiSymbol, hitKeys, hitEnds),
    scan(text, onHit) {
      run(text, onHit);
    },
    hits(text) {
      run(text, null);
      return list;
    },
  };
}
