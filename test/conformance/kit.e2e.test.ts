// Issue 30: the conformance kit against this server (one process, the real SDK client over HTTP):
// every MUST it checks holds (§6–§13.2); and against deliberately broken builds (a proxy that makes
// the wire say what a build with one fault says), each fault fails the check that names its section.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../conformance/src/kit.ts';
import triageAdapter from '../../conformance/adapters/learnables-triage.ts';
import type { CheckResult } from '../../conformance/src/report.ts';
import { startInProcess, type Host } from '../e2e/host.ts';
import { secondTenantToken } from './tokens.ts';
import { startFaultProxy, type Fault } from './fault-proxy.ts';
import { wireFaults } from './faults.ts';
import { nothingAsked } from './faults-questions.ts';
import { objects } from './fault-wire.ts';

/** A build that leaves the optional versionId and previousVersionId out of every answer (§10.4). */
function withoutVersionIds(body: unknown): unknown {
  for (const o of objects(body)) {
    delete o.versionId;
    delete o.previousVersionId;
  }
  return body;
}

const TAUGHT_BY = 'dana@warehouse.example';
let host: Host;
let second: string;

beforeAll(async () => {
  // Each run makes a few calls without credentials (§13.2's checks); thirty runs in a row would
  // trip the server's throttle of failed authentications, which is not what this file tests.
  host = await startInProcess({ AUTH_FAILURE_BURST: '10000' });
  second = await secondTenantToken({ dataDir: host.dataDir });
});
afterAll(() => host.close());

const run = (url: string): Promise<CheckResult[]> =>
  runConformance({
    baseUrl: url,
    credentials: { token: host.token!, secondToken: second },
    adapter: triageAdapter,
    taughtBy: TAUGHT_BY,
  });

async function throughProxy(fault: Fault): Promise<CheckResult[]> {
  const proxy = await startFaultProxy(host.url, fault);
  try {
    return await run(proxy.url);
  } finally {
    await proxy.close();
  }
}

const failed = (results: readonly CheckResult[]): CheckResult[] => results.filter((r) => r.status === 'FAIL');

/** Every section the kit proves on this server; a check of each must pass. */
const SECTIONS = [
  '§6',
  '§6.1',
  '§6.2',
  '§6.3',
  '§7',
  '§8',
  '§9',
  '§10.1',
  '§10.2',
  '§10.3',
  '§10.4',
  '§11',
  '§12.2',
  '§13.2',
];

describe('the conformance kit against this server', () => {
  it('finds every MUST held and checked: nothing fails or is skipped, and only ListTasks on the A2A 0.3 interfaces (0.3 has none) does not apply', async () => {
    const results = await run(host.url);
    if (process.env.KIT_PRINT) for (const r of results) console.log(r.status, r.section, r.id, r.reason);
    expect(failed(results)).toEqual([]);
    expect(results.filter((r) => r.status === 'SKIP')).toEqual([]);
    const na = results.filter((r) => r.status === 'N/A').map((r) => [r.id, r.reason]);
    expect(na).toEqual([
      ['activation.no-block.list.JSONRPC@0.3', 'A2A 0.3 has no ListTasks'],
      ['activation.no-block.list.HTTP+JSON@0.3', 'A2A 0.3 has no ListTasks'],
    ]);
    const passedSections = new Set(results.filter((r) => r.status === 'PASS').map((r) => r.section));
    expect([...passedSections].sort()).toEqual([...SECTIONS].sort());
    // Every interface the card lists, streaming and resubscription included (§7).
    for (const channel of ['JSONRPC', 'HTTP+JSON', 'JSONRPC@0.3', 'HTTP+JSON@0.3']) {
      expect(results).toContainEqual(
        expect.objectContaining({ id: `activation.echo.stream.${channel}`, status: 'PASS' }),
      );
      for (const read of ['send', 'stream', 'get', 'resubscribe'])
        expect(results).toContainEqual(
          expect.objectContaining({ id: `activation.no-block.${read}.${channel}`, status: 'PASS' }),
        );
    }
  });

  it('has a fault below for every check it passes here: no check that cannot fail (issue 42)', async () => {
    const faults = wireFaults({ token: '', secondToken: '', taughtBy: '' });
    const uncovered = (await run(host.url))
      .filter((r) => r.status === 'PASS')
      .filter(
        (r) => !faults.some((f) => f.fails.some((e) => r.id.startsWith(e.id) && r.section === e.section)),
      )
      .map((r) => r.id);
    expect(uncovered).toEqual([]);
  });

  it('is passed through unchanged by the fault proxy with no fault on', async () => {
    expect(failed(await throughProxy({}))).toEqual([]);
  });

  it('finds every MUST held when the agent gives no versionId or previousVersionId (optional, §10.4): versions by definitionVersion', async () => {
    const results = await throughProxy({ response: withoutVersionIds });
    expect(failed(results)).toEqual([]);
    expect(results.filter((r) => r.status === 'SKIP')).toEqual([]);
    for (const id of ['absorb.new-version', 'pin.finishes-on-pinned', 'history.attributed', 'history.undo'])
      expect(results).toContainEqual(
        expect.objectContaining({ id, status: 'PASS', reason: expect.not.stringContaining('sha256:') }),
      );
  });

  it('skips, never passes, a "no teach block" read that asked nothing (§7)', async () => {
    const results = await throughProxy(nothingAsked);
    expect(failed(results)).toEqual([]);
    const sends = results.filter((r) => r.id.startsWith('activation.no-block.send.'));
    expect(sends.length).toBe(4);
    for (const r of sends)
      expect(r).toMatchObject({ status: 'SKIP', reason: expect.stringContaining('proves nothing') });
  });

  // The names, for the test titles; each test builds its fault with the server's tokens.
  it.each(wireFaults({ token: '', secondToken: '', taughtBy: '' }).map((f) => f.name))(
    'fails the check that names its section with %s',
    async (name) => {
      const f = wireFaults({ token: host.token!, secondToken: second, taughtBy: TAUGHT_BY }).find(
        (x) => x.name === name,
      )!;
      const results = await throughProxy(f.fault);
      const fails = failed(results);
      for (const expected of f.fails) {
        expect(fails).toContainEqual(
          expect.objectContaining({ id: expect.stringContaining(expected.id), section: expected.section }),
        );
      }
      // Nothing else fails: the fault is caught where it is, not by accident elsewhere.
      const sections = new Set(f.fails.map((e) => e.section));
      for (const r of fails) expect(sections).toContain(r.section);
    },
  );
});
