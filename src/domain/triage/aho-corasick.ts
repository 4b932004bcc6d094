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
import { foldCodeUnit } from './atoms.ts';

/** Cells of full transition rows kept (4 bytes each). */
const MAX_GOTO_CELLS = 2_000_000;

export interface AhoCorasick {
  readonly keyCount: number;
  readonly nodeCount: number;
  /**
   * Calls `onHit(key, end)` for every occurrence of every key in `text`, `end` being the index of its
   * last code unit; hits come in increasing `end` order.
   */
  scan(text: string, onHit: (key: number, end: number) => void): void;
}

/** Builds the automaton for `keys` (non-empty ASCII strings, folded; duplicates allowed). */
export function buildAhoCorasick(keys: readonly string[]): AhoCorasick {
  // Alphabet: the ASCII code units that occur in keys, numbered from 1; 0 means "in no key".
  const symbolOf = new Uint8Array(128);
  let symbols = 0;
  let totalLength = 0;
  for (const key of keys) {
    if (key.length === 0) throw new Error('Aho-Corasick keys must not be empty.');
    totalLength += key.length;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      if (c > 0x7f || foldCodeUnit(c) !== c)
        throw new Error(`Aho-Corasick key "${key}" is not folded ASCII.`);
      symbolOf[c] = 1;
    }
  }
  // Number symbols in code-unit order, so that sorted keys give siblings in symbol order.
  for (let c = 0; c < 128; c++) if (symbolOf[c] !== 0) symbolOf[c] = ++symbols;
  // Text code unit -> symbol, folding A-Z, KELVIN SIGN and LONG S the way re2 (?i) does.
  const fold = (c: number): number => {
    const f = foldCodeUnit(c);
    return f < 128 ? (symbolOf[f] as number) : 0;
  };
  const asciiSymbol = new Uint8Array(128);
  for (let c = 0; c < 128; c++) asciiSymbol[c] = fold(c);
  const kelvinSymbol = fold(0x212a);
  const longSSymbol = fold(0x017f);

  const capacity = totalLength + 1;
  const firstChild = new Int32Array(capacity).fill(-1);
  const nextSibling = new Int32Array(capacity).fill(-1);
  const symbol = new Uint8Array(capacity);
  const keyAt = new Int32Array(capacity).fill(-1);
  let nodes = 1;

  // Native string sort (code-unit order) is several times faster than sorting indices by key.
  const firstIndex = new Map<string, number>();
  const duplicates: number[][] = [];
  keys.forEach((key, i) => {
    const first = firstIndex.get(key);
    if (first === undefined) firstIndex.set(key, i);
    else (duplicates[first] ??= []).push(i);
  });
  const sortedKeys = [...firstIndex.keys()].sort();
  // Insert in sorted order: the path of the previous key is reused for the shared prefix and every new
  // child is appended after its last sibling, so siblings stay in character order.
  const path = new Int32Array(maxLength(keys) + 1);
  const lastChild = new Int32Array(capacity).fill(-1);
  let previous = '';
  for (const key of sortedKeys) {
    const k = firstIndex.get(key) as number;
    let shared = 0;
    while (
      shared < key.length &&
      shared < previous.length &&
      key.charCodeAt(shared) === previous.charCodeAt(shared)
    )
      shared++;
    let node = path[shared] as number;
    for (let i = shared; i < key.length; i++) {
      const child = nodes++;
      symbol[child] = symbolOf[key.charCodeAt(i)] as number;
      const last = lastChild[node] as number;
      if (last === -1) firstChild[node] = child;
      else nextSibling[last] = child;
      lastChild[node] = child;
      node = child;
      path[i + 1] = child;
    }
    keyAt[node] = k;
    previous = key;
  }

  // Dense tables for the root and its children.
  const width = symbols + 1;
  const denseIndex = new Int32Array(nodes).fill(-1);
  const dense: number[] = [];
  const addDense = (node: number): void => {
    denseIndex[node] = dense.length / width;
    const row = new Array<number>(width).fill(-1);
    for (let c = firstChild[node] as number; c !== -1; c = nextSibling[c] as number)
      row[symbol[c] as number] = c;
    dense.push(...row);
  };
  addDense(0);
  for (let c = firstChild[0] as number; c !== -1; c = nextSibling[c] as number) addDense(c);
  const table = Int32Array.from(dense);

  const child = (node: number, s: number): number => {
    const d = denseIndex[node] as number;
    if (d !== -1) return table[d * width + s] as number;
    for (let c = firstChild[node] as number; c !== -1; c = nextSibling[c] as number) {
      const cs = symbol[c] as number;
      if (cs === s) return c;
      if (cs > s) return -1;
    }
    return -1;
  };

  // Failure and dictionary links, breadth first.
  const fail = new Int32Array(nodes);
  const dictionary = new Int32Array(nodes).fill(-1);
  const queue = new Int32Array(nodes);
  let head = 0;
  let tail = 0;
  for (let c = firstChild[0] as number; c !== -1; c = nextSibling[c] as number) queue[tail++] = c;
  while (head < tail) {
    const u = queue[head++] as number;
    for (let v = firstChild[u] as number; v !== -1; v = nextSibling[v] as number) {
      const s = symbol[v] as number;
      let f = fail[u] as number;
      let target = child(f, s);
      while (target === -1 && f !== 0) {
        f = fail[f] as number;
        target = child(f, s);
      }
      const vf = target === -1 ? 0 : target;
      fail[v] = vf;
      dictionary[v] = (keyAt[vf] as number) !== -1 ? vf : (dictionary[vf] as number);
      queue[tail++] = v;
    }
  }

  // Full transition rows (failure links resolved) for the first nodes in breadth-first order, where
  // the scan spends most of its steps; a node's failure target always comes earlier, so has a row.
  const rows = Math.min(nodes, Math.max(1, Math.floor(MAX_GOTO_CELLS / width)));
  const gotoRow = new Int32Array(nodes).fill(-1);
  const gotoTable = new Int32Array(rows * width);
  const fillRow = (node: number, row: number): void => {
    gotoRow[node] = row;
    const base = row * width;
    const failBase = node === 0 ? -1 : (gotoRow[fail[node] as number] as number) * width;
    for (let sym = 1; sym < width; sym++) {
      const c = child(node, sym);
      gotoTable[base + sym] = c !== -1 ? c : failBase < 0 ? 0 : (gotoTable[failBase + sym] as number);
    }
  };
  fillRow(0, 0);
  for (let i = 0; i < rows - 1 && i < tail; i++) fillRow(queue[i] as number, i + 1);

  const step = (state: number, s: number): number => {
    for (;;) {
      const row = gotoRow[state] as number;
      if (row !== -1) return gotoTable[row * width + s] as number;
      const next = child(state, s);
      if (next !== -1) return next;
      state = fail[state] as number;
    }
  };

  return {
    keyCount: keys.length,
    nodeCount: nodes,
    scan(text, onHit) {
      let state = 0;
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        const s =
          c < 128 ? (asciiSymbol[c] as number) : c === 0x212a ? kelvinSymbol : c === 0x017f ? longSSymbol : 0;
        if (s === 0) {
          state = 0;
          continue;
        }
        state = step(state, s);
        let out = (keyAt[state] as number) !== -1 ? state : (dictionary[state] as number);
        while (out !== -1) {
          const k = keyAt[out] as number;
          onHit(k, i);
          const same = duplicates[k];
          if (same !== undefined) for (const d of same) onHit(d, i);
          out = dictionary[out] as number;
        }
      }
    },
  };
}

function maxLength(keys: readonly string[]): number {
  let max = 0;
  for (const k of keys) if (k.length > max) max = k.length;
  return max;
}
