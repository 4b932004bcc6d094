// Invariant: lessons for one tenant serialize without lost updates, in one process and across processes; two identical lessons at once make one version and one learned:false (§10.2, §10.3).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openCore, type Core } from './knowledge-harness.ts';
import { startWorker } from './workers/start-worker.ts';

const lessonFor = (i: number) => ({
  collection: 'customers',
  entry: `customer-${i % 7}`,
  // Named, so a lesson for a new entry creates it (issue 12.3: no entry by accident).
  value: { pattern: `ref-${i}-\\d{5}`, where: 'subject', label: `Customer ${i % 7}` },
  taughtBy: 'dana@warehouse.example',
});

describe('concurrency', () => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });
  async function core(file?: string): Promise<Core> {
    const c = await openCore(file === undefined ? {} : { file });
    cleanup.push(() => c.close());
    return c;
  }

  it('two identical lessons at the same moment make one version and one learned:false (§10.2)', async () => {
    const c = await core();
    const lesson = lessonFor(1);
    const results = await Promise.all([
      c.authority.absorb(c.tenant, c.teacher, lesson),
      c.authority.absorb(c.tenant, c.teacher, lesson),
    ]);
    expect(results.map((r) => r.learned).sort()).toEqual([false, true]);
    expect(results[0].versionId).toBe(results[1].versionId);
    expect(await c.authority.history(c.tenant)).toHaveLength(1);
  });

  it('many concurrent different lessons in one process lose nothing', async () => {
    const c = await core();
    const n = 40;
    const results = await Promise.all(
      Array.from({ length: n }, (_, i) => c.authority.absorb(c.tenant, c.teacher, lessonFor(i))),
    );
    expect(results.every((r) => r.learned)).toBe(true);
    expect(results.map((r) => r.definitionVersion).sort((a, b) => a - b)).toEqual(
      Array.from({ length: n }, (_, i) => i + 1),
    );
    const active = await c.authority.active(c.tenant);
    expect(active.definitionVersion).toBe(n);
    const rules = await c.authority.rulesInForce(c.tenant, active.definition.versionId);
    expect(rules).toHaveLength(n);
  });

  it('a commit that lost the race reports conflict instead of overwriting (the primary key guard)', async () => {
    const c = await core();
    const r = await c.authority.absorb(c.tenant, c.teacher, lessonFor(1));
    const head = (await c.store.head(c.tenant))!;
    const stale = { ...head, describes: 'a stale writer', versionId: `sha256:${'1'.repeat(64)}` };
    expect(
      await c.store.commit(c.tenant, {
        expectedDefinitionVersion: 0,
        objects: [],
        activation: { ...stale, definitionVersion: 1 },
      }),
    ).toBe('conflict');
    expect((await c.store.head(c.tenant))!.versionId).toBe(r.versionId);
  });

  it('separate processes teaching the same file at once lose no lesson, and their identical first lessons make one version', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lt-conc-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'learnables.sqlite');
    await core(file); // migrate once before the workers start
    const perWorker = 12;
    const workers = ['ann', 'bob'].map((name) => startWorker(file, name, perWorker));
    cleanup.push(() => workers.forEach((w) => w.child.kill('SIGKILL')));
    await Promise.all(workers.map((w) => w.ready));
    for (const w of workers) w.child.stdin!.write('go\n');
    const outputs = await Promise.all(workers.map((w) => w.done));
    const firsts = outputs.map((o) => o.find((r) => r.i === 0)!);
    expect(firsts.map((f) => f.learned).sort()).toEqual([false, true]);
    expect(
      outputs
        .flat()
        .filter((r) => r.i > 0)
        .every((r) => r.learned),
    ).toBe(true);

    const after = await core(file);
    const active = await after.authority.active(after.tenant);
    const expected = 1 + 2 * (perWorker - 1);
    expect(active.definitionVersion).toBe(expected);
    const rules = await after.authority.rulesInForce(after.tenant, active.definition.versionId);
    expect(rules).toHaveLength(expected);
  });
});
