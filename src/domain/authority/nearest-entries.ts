/**
 * The entries nearest to a name nobody has (issue 12.3: "no customer 'northgat'; did you mean
 * 'northgate' (Northgate Motors Ltd)?"), by Levenshtein distance over entry names and labels.
 *
 * Owns: the distance and the choice of suggestions. Does not: know what an entry holds (the label
 * is the learnable's, asked through `Learnable.label`), or phrase the refusal (create-authority.ts).
 */

/** How many suggestions a refusal names at most. */
export const MAX_SUGGESTIONS = 3;

export interface NamedEntry {
  readonly entry: string;
  readonly label: string;
}

/**
 * Levenshtein distance between `a` and `b` over code points, case as given; stops early and
 * answers `limit + 1` once the distance is known to exceed `limit` (so a long directory stays cheap).
 */
export function levenshtein(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
  const s = [...a];
  const t = [...b];
  if (Math.abs(s.length - t.length) > limit) return limit + 1;
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      const d = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      row.push(d);
      if (d < best) best = d;
    }
    if (best > limit) return limit + 1;
    previous = row;
  }
  return previous[t.length]!;
}

/**
 * The entries whose name or label is within a typo of `wanted` (at most a third of its length,
 * and at least 2 edits), nearest first, ties by name; compared case-insensitively.
 */
export function nearestEntries(wanted: string, entries: Iterable<NamedEntry>): NamedEntry[] {
  const w = wanted.toLowerCase();
  const limit = Math.max(2, Math.floor([...w].length / 3));
  const near: { e: NamedEntry; d: number }[] = [];
  for (const e of entries) {
    const d = Math.min(
      levenshtein(w, e.entry.toLowerCase(), limit),
      levenshtein(w, e.label.toLowerCase(), limit),
    );
    if (d <= limit) near.push({ e, d });
  }
  near.sort((x, y) => x.d - y.d || (x.e.entry < y.e.entry ? -1 : x.e.entry > y.e.entry ? 1 : 0));
  return near.slice(0, MAX_SUGGESTIONS).map((n) => n.e);
}
