/**
 * The marks without atoms (§13.3): RE2.Set shards of at most SET_SHARD_SIZE patterns per part, which
 * say which of their marks match a part; each such mark's own re2 then gives the matched text.
 *
 * Owns: building shards (halving one that does not compile). Does not own: running them
 * (subject.ts `setMatches`) or which marks go in them (compile-matcher.ts).
 */
import RE2 from 're2';
import type { Mark } from './matcher.ts';

/** An RE2.Set (its type is not exported by name from 're2'). */
type ShardSet = ReturnType<typeof RE2.Set>;

export interface Shard {
  readonly set: ShardSet | null;
  readonly marks: readonly number[];
}

export function* buildShards(
  marks: readonly Mark[],
  list: readonly number[],
  size: number,
): Generator<void, Shard[]> {
  const shards: Shard[] = [];
  for (let i = 0; i < list.length; i += size) {
    shards.push(...shard(marks, list.slice(i, i + size)));
    yield;
  }
  return shards;
}

/** One RE2.Set for `ids`, halved until it compiles; a single pattern re2 cannot put in a set runs alone. */
function shard(marks: readonly Mark[], ids: readonly number[]): Shard[] {
  try {
    return [
      {
        set: new RE2.Set(
          ids.map((m) => (marks[m] as Mark).source),
          'iu',
        ),
        marks: ids,
      },
    ];
  } catch {
    if (ids.length === 1) return [{ set: null, marks: ids }];
    const half = Math.ceil(ids.length / 2);
    return [...shard(marks, ids.slice(0, half)), ...shard(marks, ids.slice(half))];
  }
}
