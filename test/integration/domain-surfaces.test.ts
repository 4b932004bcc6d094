// Invariant (issue 13): each domain folder lists its public surface in an index.ts, and the domain
// and the A2A adapter import another domain folder only through it (never a file past it).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const DOMAIN = join(ROOT, 'src/domain');
const FOLDERS = ['triage', 'authority', 'definitions', 'learnables', 'matching', 'mail'];
const SPECIFIER = /(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?'([^']+)'/g;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.contract.ts') ? [path] : [];
  });
}

/** The domain folder a path lies in, or null. */
function folderOf(path: string): string | null {
  const rel = relative(DOMAIN, path);
  const top = rel.split('/')[0]!;
  return rel.startsWith('..') || !FOLDERS.includes(top) ? null : top;
}

function pastTheIndex(files: readonly string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    for (const m of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      const spec = m[1]!;
      if (!spec.startsWith('.')) continue;
      const target = resolve(dirname(file), spec);
      const folder = folderOf(target);
      if (folder === null || folder === folderOf(file)) continue;
      if (target !== join(DOMAIN, folder, 'index.ts')) found.push(`${relative(ROOT, file)} imports ${spec}`);
    }
  }
  return found;
}

describe('domain folders have one public surface', () => {
  it('gives every domain folder an index.ts', () => {
    for (const folder of FOLDERS) expect(existsSync(join(DOMAIN, folder, 'index.ts')), folder).toBe(true);
  });

  it('imports another domain folder only through its index.ts, from the domain and from src/a2a', () => {
    const files = [...sources(DOMAIN), ...sources(join(ROOT, 'src/a2a'))];
    expect(pastTheIndex(files)).toEqual([]);
  });

  it('would notice an import past an index (the readers test reaches into triage on purpose)', () => {
    expect(pastTheIndex([join(ROOT, 'test/integration/readers.test.ts')])).toContain(
      'test/integration/readers.test.ts imports ../../src/domain/triage/read-message.ts',
    );
  });
});
