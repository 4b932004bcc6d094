// Invariant: on first start the demo tenant receives the spec's demo directory exactly once.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureDemoTenant, type DirectoryImport } from '../../src/domain/authority/index.ts';
import { DEMO_TENANT } from '../../src/domain/tenant.ts';
import { openCore } from './knowledge-harness.ts';

const demo = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'directory', 'demo.json'), 'utf8'),
) as DirectoryImport;

describe('ensureDemoTenant', () => {
  it('imports the demo directory when the demo tenant has no history, and never again', async () => {
    const core = await openCore({ tenant: DEMO_TENANT });
    try {
      const first = await ensureDemoTenant(core.authority, demo);
      expect(first?.definitionVersion).toBe(1);
      const active = await core.authority.active(DEMO_TENANT);
      expect([...active.definition.collections.get('customers')!.keys()]).toEqual(
        expect.arrayContaining(['northgate', 'alhamra', 'gulftrade']),
      );
      expect(active.definition.collections.has('kinds')).toBe(true);
      expect(await ensureDemoTenant(core.authority, demo)).toBeNull();
      expect(await core.authority.history(DEMO_TENANT)).toHaveLength(1);
    } finally {
      await core.close();
    }
  });
});
