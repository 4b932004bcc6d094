// Invariant (issue 51): objects read through the object cache are parsed, checked against their
// hash, frozen, and the strings every mark's provenance repeats (`taughtBy`, `at`) are kept once in
// memory however many objects hold them; an erase's clear forgets the interned values too (§14).
// One copy of a string is not observable from JavaScript, so a child process counts the copies in
// a V8 heap snapshot of its own (a few MB).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from './content-address.ts';
import { createObjectCache, createObjectReader, frozenInterned, MissingObjectError } from './object-cache.ts';

const body = (n: number, at: string): string =>
  JSON.stringify({
    label: `Kestrel ${n}`,
    marks: [{ pattern: `@k${n}\\.example`, where: 'from', provenance: { taughtBy: 'person-1', at } }],
  });

describe('the object cache', () => {
  it('parses, checks the hash, freezes, and refuses a body that does not match its address', async () => {
    const stored = new Map([[sha256Hex(body(1, 'x')), body(1, 'x')]]);
    const reader = createObjectReader(
      (hashes) =>
        Promise.resolve(new Map(hashes.flatMap((h) => (stored.has(h) ? [[h, stored.get(h)!]] : [])))),
      createObjectCache(),
    );
    const value = (await reader.get(sha256Hex(body(1, 'x')))) as { marks: { where: string }[] };
    expect(value.marks[0]!.where).toBe('from');
    expect(Object.isFrozen(value.marks[0])).toBe(true);
    stored.set('0'.repeat(64), body(2, 'x'));
    await expect(reader.get('0'.repeat(64))).rejects.toBeInstanceOf(MissingObjectError);
  });

  it('freezes every level and leaves other strings as they are', () => {
    const cache = createObjectCache();
    const v = frozenInterned(JSON.parse(body(3, '2026-10-01T09:00:00.000Z')), cache) as {
      label: string;
      marks: { provenance: { at: string } }[];
    };
    expect(Object.isFrozen(v.marks[0]!.provenance)).toBe(true);
    expect(v.label).toBe('Kestrel 3');
    expect(v.marks[0]!.provenance.at).toBe('2026-10-01T09:00:00.000Z');
  });

  it('keeps one copy of a timestamp 2,000 objects repeat (heap snapshot)', () => {
    const module = fileURLToPath(new URL('./object-cache.ts', import.meta.url));
    const script = `
      const { writeHeapSnapshot } = await import('node:v8');
      const { readFileSync, rmSync } = await import('node:fs');
      const { createObjectCache, frozenInterned } = await import(${JSON.stringify(module)});
      const AT = ['2026-10-01T09:', '00:00.123Z'];
      const count = () => {
        const file = writeHeapSnapshot();
        const s = JSON.parse(readFileSync(file, 'utf8'));
        rmSync(file);
        const f = s.snapshot.meta.node_fields, w = f.length, types = s.snapshot.meta.node_types[0];
        const [t, n] = [f.indexOf('type'), f.indexOf('name')];
        let copies = 0;
        for (let i = 0; i < s.nodes.length; i += w)
          if (types[s.nodes[i + t]] === 'string' && s.strings[s.nodes[i + n]] === AT.join('')) copies++;
        return copies;
      };
      const cache = createObjectCache();
      const kept = [];
      for (let i = 0; i < 2000; i++)
        kept.push(frozenInterned(JSON.parse(JSON.stringify({ marks: [{ provenance: { at: AT.join('') } }] })), cache));
      const before = count();
      const plain = [];
      for (let i = 0; i < 2000; i++) plain.push(JSON.parse(JSON.stringify({ marks: [{ provenance: { at: AT.join('') } }] })));
      const uninterned = count() - before;
      console.log(JSON.stringify({ interned: before, uninterned }));
    `;
    const out = execFileSync(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script],
      {
        encoding: 'utf8',
      },
    );
    const r = JSON.parse(out.trim().split('\n').pop()!) as {
      interned: number;
      uninterned: number;
    };
    // Without interning each parsed object holds its own copy (the control); with it, one (or two,
    // V8 may keep the parser's first copy until it is collected).
    expect(r.uninterned).toBeGreaterThanOrEqual(1900);
    expect(r.interned).toBeLessThanOrEqual(2);
  }, 60_000);

  it('forgets every interned value with its objects on clear (§14: an erase made elsewhere)', () => {
    const cache = createObjectCache();
    frozenInterned(JSON.parse(body(4, '2026-10-02T09:00:00.000Z')), cache);
    expect(cache.internedValues).toBe(2); // taughtBy, at
    cache.clear();
    expect(cache.internedValues).toBe(0);
  });
});
