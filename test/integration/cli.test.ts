// Invariant: a person can teach a tenant from the command line, see the lesson in the history with its author and reason, roll it back, revert it and erase an identifier, on the embedded store; domain errors exit 1 with the message only.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'lt-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli([...argv, '--data-dir', dataDir, '--tenant', 'clitest'], {
    out: (l) => (out += `${l}\n`),
    err: (l) => (err += `${l}\n`),
    env: {},
  });
  return { code, out, err };
}

describe('learnables-triage CLI', () => {
  it('imports, teaches, lists history, shows, rolls back, reverts and erases', async () => {
    const imp = await cli(
      'import',
      join(import.meta.dirname, '..', '..', 'fixtures', 'directory', 'demo.json'),
      '--by',
      'ops@warehouse.example',
      '--as',
      'ops@warehouse.example',
    );
    expect(imp).toMatchObject({ code: 0 });
    expect(imp.out).toMatch(/imported \d+ lessons/);

    const t = await cli(
      'teach',
      '--collection',
      'customers',
      '--entry',
      'northgate',
      '--set',
      'pattern=dana@origin\\.example',
      '--set',
      'where=from',
      '--by',
      'sam@warehouse.example',
      '--as',
      'ops@warehouse.example',
      '--reason',
      'Dana sends the pre-alerts',
    );
    expect(t.code).toBe(0);
    expect(t.out).toMatch(
      /Learned: customers\/northgate matches the pattern 'dana@origin\\\.example' in the from/,
    );
    expect(t.out).toMatch(/definitionVersion 2/);

    const again = await cli(
      'teach',
      '--collection',
      'customers',
      '--entry',
      'northgate',
      '--value',
      '{"pattern":"dana@origin\\\\.example","where":"from"}',
      '--by',
      'sam@warehouse.example',
      '--as',
      'ops@warehouse.example',
    );
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/Nothing new/);

    const h = await cli('history');
    expect(h.out).toMatch(/#2 .* teach +by sam@warehouse\.example customers\/northgate/);
    expect(h.out).toMatch(/reason: Dana sends the pre-alerts/);

    const show = await cli('show');
    expect(show.out).toMatch(/active definitionVersion 2/);
    expect(show.out).toMatch(/dana@origin.*#2, sam@warehouse\.example/);

    const rb = await cli(
      'rollback',
      '--to',
      '1',
      '--by',
      'sam@warehouse.example',
      '--as',
      'ops@warehouse.example',
    );
    expect(rb.code).toBe(0);
    expect(rb.out).toMatch(/definitionVersion 3/);
    const fwd = await cli(
      'rollback',
      '--to',
      '2',
      '--by',
      'sam@warehouse.example',
      '--as',
      'ops@warehouse.example',
    );
    expect(fwd.out).toMatch(/definitionVersion 4/);
    const rv = await cli(
      'revert',
      '--activation',
      '2',
      '--by',
      'sam@warehouse.example',
      '--as',
      'ops@warehouse.example',
      '--reason',
      'forwarder',
    );
    expect(rv.code).toBe(0);
    expect(rv.out).toMatch(/Reverted: took back activation 2/);

    const er = await cli(
      'erase',
      '--identifier',
      'dana@origin.example',
      '--by',
      'sam@warehouse.example',
      '--as',
      'ops@warehouse.example',
    );
    expect(er.code).toBe(0);
    expect(er.out).toMatch(/Tombstoned [1-9]\d* earlier version/);
    expect((await cli('history')).out).toMatch(/\[tombstoned\]/);
  });

  it('exits 1 with the message and no stack on a domain error', async () => {
    const r = await cli(
      'teach',
      '--collection',
      'suppliers',
      '--entry',
      'x',
      '--set',
      'a=b',
      '--by',
      'sam@warehouse.example',
      '--as',
      'ops@warehouse.example',
    );
    expect(r.code).toBe(1);
    expect(r.err.trim()).toBe(
      'There is no collection "suppliers": this agent declares "customers", "kinds", "mappings".',
    );
    const refused = await cli(
      'teach',
      '--collection',
      'customers',
      '--entry',
      'x',
      '--set',
      'pattern=(',
      '--by',
      'sam@warehouse.example',
      '--as',
      'ops@warehouse.example',
    );
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/missing \)/);
    expect(refused.err).not.toMatch(/ at /);
  });

  it('exits 2 with the usage on a typing mistake', async () => {
    const r = await cli('teach', '--collection', 'customers');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--by/);
    expect((await cli('frobnicate')).code).toBe(2);
  });
});
