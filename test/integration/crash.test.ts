// Invariant: a process killed (SIGKILL) in the middle of absorbing leaves the old version or the new one, never a torn one: the file opens, the head loads completely and every version in the history loads (§10.3).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openCore } from './knowledge-harness.ts';
import { startWorker } from './workers/start-worker.ts';

describe('crash safety', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lt-crash-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('survives SIGKILL mid-absorb, round after round, with nothing torn', async () => {
    const file = join(dir, 'learnables.sqlite');
    let lastSeen = 0;
    for (let round = 0; round < 3; round++) {
      const w = startWorker(file, `w${round}`, 'forever', false);
      // Kill at a moment that depends on the round, while lessons are being written back to back.
      const killAfter = 15 + round * 7;
      await new Promise<void>((resolve, reject) => {
        const timer = setInterval(() => {
          if (w.lines.length >= killAfter) {
            clearInterval(timer);
            w.child.kill('SIGKILL');
            resolve();
          }
        }, 1);
        w.child.once('exit', (code, signal) => {
          if (signal !== 'SIGKILL') {
            clearInterval(timer);
            reject(new Error(`worker ended by itself (${code})`));
          }
        });
      });
      await new Promise<void>((r) =>
        w.child.exitCode !== null || w.child.signalCode !== null ? r() : w.child.once('exit', () => r()),
      );
      const reported = Math.max(...w.lines.map((l) => l.definitionVersion));

      const core = await openCore({ file });
      try {
        const history = await core.authority.history(core.tenant);
        const head = await core.authority.active(core.tenant);
        // Everything the worker reported as committed is there (and maybe one more it had no time to report).
        expect(head.definitionVersion).toBeGreaterThanOrEqual(reported);
        expect(head.definitionVersion).toBeGreaterThan(lastSeen);
        // The history is contiguous: no half-written row.
        expect(history.map((h) => h.definitionVersion)).toEqual(
          Array.from({ length: head.definitionVersion }, (_, i) => head.definitionVersion - i),
        );
        expect(head.definition.versionId).toBe(history[0]!.versionId);
        // Every version ever activated loads completely (content addressing verifies each object).
        for (const h of history) {
          const d = await core.authority.load(core.tenant, h.versionId);
          expect(d.versionId).toBe(h.versionId);
          const rules = await core.authority.rulesInForce(core.tenant, h.versionId);
          expect(rules.length).toBeGreaterThan(0);
        }
        lastSeen = head.definitionVersion;
      } finally {
        await core.close();
      }
    }
  });
});
