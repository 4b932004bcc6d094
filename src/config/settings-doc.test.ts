// Invariant (issue 18): docs/settings.md lists every environment variable of the one config schema
// with its default, range and example, and says what each does; it is generated, so it cannot drift.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { SETTINGS } from './config.ts';
import { renderSettingsDoc, SETTING_DOCS } from './settings-doc.ts';

describe('docs/settings.md', () => {
  it('has a sentence for every setting of the schema', () => {
    const missing = Object.values(SETTINGS)
      .map((s) => s.env)
      .filter((env) => SETTING_DOCS[env] === undefined);
    expect(missing, 'add a sentence for these to SETTING_DOCS in src/config/settings-doc.ts').toEqual([]);
  });

  it('is what the schema generates (run `npm run docs:settings` after changing a setting)', () => {
    const file = readFileSync(new URL('../../docs/settings.md', import.meta.url), 'utf8');
    expect(file).toBe(renderSettingsDoc());
    for (const s of Object.values(SETTINGS)) expect(file).toContain(`| \`${s.env}\` |`);
  });

  it('names no setting the schema does not have', () => {
    const documented = Object.keys(SETTING_DOCS);
    const known = new Set<string>(Object.values(SETTINGS).map((s) => s.env));
    expect(documented.filter((env) => !known.has(env))).toEqual([]);
  });

  it('gives every list in the form the schema reads it (issue 50)', () => {
    const file = readFileSync(new URL('../../docs/settings.md', import.meta.url), 'utf8');
    for (const s of Object.values(SETTINGS) as readonly {
      env: string;
      schema: z.ZodType;
      example: string;
    }[]) {
      const row = file.split('\n').find((l) => l.startsWith(`| \`${s.env}\` |`))!;
      if (row.includes('a JSON array')) expect(s.schema.safeParse('[]').success, s.env).toBe(true);
      if (row.includes('a comma-separated list'))
        expect(s.schema.safeParse('a.example,b.example').success, s.env).toBe(true);
    }
    expect(file).toMatch(/\| `PUSH_NOTIFICATION_ALLOWED_HOSTS` \| \(none\) \| a comma-separated list \|/);
  });
});
