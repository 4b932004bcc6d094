// Invariant (issue 27): the README and every page under docs/ link only to what exists. A relative
// link names a file or directory of this repository, and a `#fragment` on a Markdown page names one
// of that page's headings (GitHub's slugs), so a reader moving between pages never meets a dead end.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-');
}

function headings(markdown: string): Set<string> {
  const out = new Set<string>();
  let inCode = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) inCode = !inCode;
    const m = inCode ? null : /^#{1,6}\s+(.*)$/.exec(line);
    if (m !== null) out.add(slug(m[1]!));
  }
  return out;
}

/** Every inline Markdown link target outside code blocks and code spans. */
export function links(markdown: string): string[] {
  const text = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
}

describe('links between the pages (issue 27)', () => {
  it('finds links and headings the way a reader sees them', () => {
    expect(links('see [a](docs/a.md#x) and `[b](c.md)` and [d](https://e.example)')).toEqual([
      'docs/a.md#x',
      'https://e.example',
    ]);
    expect(slug('Who wrote it, and for whom (§13.2, §13.4)')).toBe('who-wrote-it-and-for-whom-132-134');
  });

  for (const page of PAGES) {
    it(`${page} links only to what exists`, () => {
      const source = readFileSync(join(ROOT, page), 'utf8');
      const dead: string[] = [];
      for (const target of links(source)) {
        if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // http(s), mailto: not checked offline
        const [path, fragment] = target.split('#', 2) as [string, string | undefined];
        const file = path === '' ? join(ROOT, page) : join(ROOT, dirname(page), decodeURI(path));
        if (!existsSync(file)) {
          dead.push(`${target} (no ${relative(ROOT, file)})`);
          continue;
        }
        if (
          fragment !== undefined &&
          file.endsWith('.md') &&
          !headings(readFileSync(file, 'utf8')).has(fragment)
        )
          dead.push(`${target} (no heading #${fragment} in ${relative(ROOT, file)})`);
      }
      expect(dead).toEqual([]);
    });
  }
});
