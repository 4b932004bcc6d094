// Issue 30: the kit is domain-neutral. Against this server with the test-only `units` learnable (its
// lessons have no pattern and no sender; test/fourth-learnable/), an adapter that knows only that
// learnable finds every MUST held; and a deliberately broken build of that learnable, one that
// rewrites its entry from nothing on every lesson, fails §10.2 idempotence and nothing else.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../conformance/src/kit.ts';
import type { CheckResult } from '../../conformance/src/report.ts';
import { loadConfig } from '../../src/config/config.ts';
import type { Learnable } from '../../src/domain/learnables/index.ts';
import { compose, type Composition } from '../../src/main.ts';
import { createUnitsLearnable } from '../fourth-learnable/units/units.ts';
import { startTinyAgent } from './tiny-agent.ts';
import { tinyAdapter } from './tiny-adapter.ts';
import { secondTenantToken } from './tokens.ts';
import { unitsAdapter } from './units-adapter.ts';

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
});

/** main.ts's composition with `learnable` added, listening on 127.0.0.1:0, checked by the kit. */
async function checkWith(learnable: Learnable): Promise<CheckResult[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'learnables-conformance-units-'));
  const config = loadConfig({ HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const composition: Composition = await compose(config, { announce: () => {}, learnables: [learnable] });
  closers.push(async () => {
    await composition.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const url = (await composition.server.listen(0, '127.0.0.1')).localUrl;
  return runConformance({
    baseUrl: url,
    credentials: { token: composition.demoToken!, secondToken: await secondTenantToken({ dataDir }) },
    adapter: unitsAdapter(),
    taughtBy: 'dana@warehouse.example',
  });
}

/**
 * The broken build: a lesson the entry already holds is written again, as a new entry holding only
 * it (the judging of a value is untouched, so only idempotence breaks).
 */
function forgetfulUnits(): Learnable {
  const units = createUnitsLearnable();
  return {
    ...units,
    absorb(entry, content, value, stamp) {
      const absorbed = units.absorb(entry, content, value, stamp);
      return absorbed.outcome === 'unchanged' ? units.absorb(entry, undefined, value, stamp) : absorbed;
    },
  };
}

const failed = (results: readonly CheckResult[]): CheckResult[] => results.filter((r) => r.status === 'FAIL');

describe('the conformance kit against an agent taught units, not senders', () => {
  it('finds every MUST held, through the units learnable', async () => {
    const results = await checkWith(createUnitsLearnable());
    expect(failed(results)).toEqual([]);
    expect(results).toContainEqual(
      expect.objectContaining({
        id: 'teach.collection',
        status: 'PASS',
        reason: expect.stringContaining('"units"'),
      }),
    );
    expect(results).toContainEqual(
      expect.objectContaining({
        id: 'teach.suggested-keys',
        status: 'PASS',
        reason: expect.stringContaining('(symbol)'),
      }),
    );
    for (const id of [
      'absorb.result',
      'absorb.idempotent',
      'absorb.refusal',
      'pin.finishes-on-pinned',
      'history.undo',
      'showback.current-version',
    ])
      expect(results).toContainEqual(expect.objectContaining({ id, status: 'PASS' }));
  });

  it('fails §10.2 alone against a build whose units learnable is not idempotent', async () => {
    const fails = failed(await checkWith(forgetfulUnits()));
    expect(fails.map((r) => [r.id, r.section])).toEqual([['absorb.idempotent', '§10.2']]);
    expect(fails[0]!.reason).toMatch(/^the same lesson again came back learned: true/);
  });
});

// The kit's source names nothing of this server's domain: what it knows of an agent comes from the
// card and the adapter (issue 30: "an agent in another domain can be checked with only its own adapter").
describe("the kit's source", () => {
  it('names no collection, lesson field, entry or route of this server', () => {
    const files = ['kit', 'agent', 'session', 'schema', 'report', 'cli', 'adapter', 'versions'].map(
      (f) => `conformance/src/${f}.ts`,
    );
    const checks = [
      'card',
      'activation',
      'teach-block',
      'absorption',
      'refusals',
      'history',
      'show-back',
      'teach-method',
      'authorization',
    ];
    for (const file of [...files, ...checks.map((c) => `conformance/src/checks/${c}.ts`)]) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).not.toMatch(
        /customer|northgate|pattern|\bmail\b|recheck|\bunits?\b|authority\/v1|\bcue\b/i,
      );
    }
  });
});

describe('the conformance kit against a tiny agent in another domain (expenses, JSON-RPC only, Teach method, versions by number alone)', () => {
  it('finds every MUST that applies held and checked, with only streaming not applying', async () => {
    const agent = await startTinyAgent();
    closers.push(() => agent.close());
    const results = await runConformance({
      baseUrl: agent.url,
      credentials: { token: agent.tokens[0], secondToken: agent.tokens[1] },
      adapter: tinyAdapter,
      taughtBy: 'sam@accounts.example',
    });
    expect(failed(results)).toEqual([]);
    expect(results.filter((r) => r.status === 'SKIP')).toEqual([]);
    expect(results.filter((r) => r.status === 'N/A').map((r) => r.id)).toEqual([
      'activation.echo.stream.JSONRPC',
    ]);
    // It gives no versionId: pinning, history and undo are found by definitionVersion (§10.3, §10.4).
    for (const id of [
      'teach.collection',
      'absorb.result',
      'absorb.new-version',
      'absorb.idempotent',
      'absorb.refusal',
      'lesson.undeclared-collection',
      'lesson.needs-taught-by',
      'pin.finishes-on-pinned',
      'history.attributed',
      'history.undo',
      'showback.current-version',
      'teach-method.result',
      'auth.tenant.lesson',
    ])
      expect(results).toContainEqual(expect.objectContaining({ id, status: 'PASS' }));
  });
});
