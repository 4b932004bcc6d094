// Invariant (issue 13): each domain folder lists its public surface in an index.ts, and nothing outside
// a folder (the rest of the domain, every adapter, main.ts, server.ts, the CLI, bench/ and test/)
// imports a file past it; files inside a folder, tests beside the code included, import their
// neighbours, and a `*.contract.ts` suite is test code any test may import. ESLint enforces the same
// (eslint.config.js, one import-x zone per folder); this proves it without the linter.
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
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** The domain folder a path lies in, or null. */
function folderOf(path: string): string | null {
  const rel = relative(DOMAIN, path);
  const top = rel.split('/')[0]!;
  return rel.startsWith('..') || !FOLDERS.includes(top) ? null : top;
}

/** Imports in `files` (path, or path and its text) of a domain file past its folder's index.ts. */
function pastTheIndex(files: readonly (string | { path: string; text: string })[]): string[] {
  const found: string[] = [];
  for (const f of files) {
    const file = typeof f === 'string' ? f : f.path;
    const text = typeof f === 'string' ? readFileSync(f, 'utf8') : f.text;
    for (const m of text.matchAll(SPECIFIER)) {
      const spec = m[1]!;
      if (!spec.startsWith('.')) continue;
      const target = resolve(dirname(file), spec);
      const folder = folderOf(target);
      if (folder === null || folder === folderOf(file) || target.endsWith('.contract.ts')) continue;
      if (target !== join(DOMAIN, folder, 'index.ts')) found.push(`${relative(ROOT, file)} imports ${spec}`);
    }
  }
  return found;
}

describe('domain folders have one public surface', () => {
  it('gives every domain folder an index.ts', () => {
    for (const folder of FOLDERS) expect(existsSync(join(DOMAIN, folder, 'index.ts')), folder).toBe(true);
  });

  it('imports a domain folder only through its index.ts, from everywhere outside it (src, bench, test)', () => {
    // This file is left out: its own check below holds an import past an index, as text.
    const files = ['src', 'bench', 'test']
      .flatMap((dir) => sources(join(ROOT, dir)))
      .filter((f) => f !== import.meta.filename);
    expect(files.length).toBeGreaterThan(200);
    expect(pastTheIndex(files)).toEqual([]);
  });

  it('would notice an import past an index, and lets a folder import its neighbours', () => {
    const reaching = {
      path: join(ROOT, 'test/integration/reaching.test.ts'),
      text: "import { readMessage } from '../../src/domain/triage/read-message.ts';\n",
    };
    expect(pastTheIndex([reaching])).toEqual([
      'test/integration/reaching.test.ts imports ../../src/domain/triage/read-message.ts',
    ]);
    const neighbour = {
      path: join(DOMAIN, 'triage/read-message.test.ts'),
      text: "import { readMessage } from './read-message.ts';\nimport type { Learnable } from '../learnables/index.ts';\n",
    };
    expect(pastTheIndex([neighbour])).toEqual([]);
  });
});
