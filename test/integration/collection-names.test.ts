// Invariant (issue 13): triage and the A2A adapter name no collection. A new learnable is one
// folder: nothing in src/domain/triage or src/a2a says customers, kinds or mappings, or reads a
// lesson-value or report key of theirs (pattern, cue, column, headings, manifests, customer).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

/** The collections this agent ships, as words. */
const COLLECTION = /\b(?:customers|kinds|mappings)\b/i;
/** Their entry vocabulary as code: a quoted key, a property read, or an object key. */
const VOCABULARY =
  /['"`](?:pattern|cue|column|headings|manifests|customer)['"`]|\.(?:pattern|cue|column|headings|manifests)\b|\b(?:pattern|cue|column|headings|manifests|customer)\s*:/;

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

function offences(files: readonly string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (COLLECTION.test(line) || VOCABULARY.test(line))
          found.push(`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
      });
  }
  return found;
}

describe('no collection named in triage or the A2A adapter', () => {
  it('finds none in src/domain/triage and src/a2a', () => {
    const files = [...sources(join(ROOT, 'src/domain/triage')), ...sources(join(ROOT, 'src/a2a'))];
    expect(files.length).toBeGreaterThan(10);
    expect(offences(files)).toEqual([]);
  });

  it('would find one: it fires on a learnable that does name its collection', () => {
    expect(offences([join(ROOT, 'src/domain/learnables/customers/customers.ts')]).length).toBeGreaterThan(0);
    expect(VOCABULARY.test('const v = value.pattern;')).toBe(true);
  });
});
