// Invariant: `learnables-triage read` says whose a message is and what kind, or says plainly it cannot tell, what it saw and the lesson it proposes; `dry-run` reports counts and conflicts without teaching (§8, §11, §13.1).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'lt-cli-read-'));
const MAIL = join(import.meta.dirname, '..', '..', 'fixtures', 'mail');
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli([...argv, '--data-dir', dataDir, '--tenant', 'demo'], {
    out: (l) => (out += `${l}\n`),
    err: (l) => (err += `${l}\n`),
    env: {},
  });
  return { code, out, err };
}

beforeAll(async () => {
  const imp = await cli(
    'import',
    join(import.meta.dirname, '..', '..', 'fixtures', 'directory', 'demo.json'),
    '--by',
    'ops@warehouse.example',
    '--as',
    'ops@warehouse.example',
  );
  expect(imp.code).toBe(0);
});

describe('learnables-triage read and dry-run', () => {
  it('reads a known customer’s pre-alert, with who taught the mark', async () => {
    const r = await cli('read', join(MAIL, 'ng-01-prealert-whitfield-csv.eml'));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Whose: Reads as Northgate Motors Ltd, on /m);
    expect(r.out).toMatch(/^Kind: Reads as a pre-alert, on 'Pre-alert' in the subject/m);
    expect(r.out).toMatch(/taught by ops@warehouse\.example/);
    expect(r.out).toMatch(/^Manifest: Read pieces, reference, waybill and weight from /m);
    expect(r.out).not.toMatch(/^Question:/m);
  });

  it('says plainly it cannot tell, what it saw, and proposes the sender’s address (Appendix B)', async () => {
    const r = await cli('read', join(MAIL, 'origin-01-prealert-pa-2026-0901.eml'));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Whose: Still cannot tell whose this is: nothing matched\./m);
    expect(r.out).toMatch(
      /^Question: Nothing matched, so I can't tell whose shipment this is: who should it go to\?$/m,
    );
    expect(r.out).toMatch(
      /Proposed lesson, from the address this message came from \(first message from this address\): \{"pattern":"billing@origin\.example","where":"from"\}/, // issue 27: as a person types it
    );
  });

  it('dry-runs the proposed lesson against what was read, then teaching it settles the next message', async () => {
    await cli('read', join(MAIL, 'origin-02-prealert-pa-2026-0917.eml'));
    const read = await cli('read', '--json', join(MAIL, 'origin-01-prealert-pa-2026-0901.eml'));
    const out = JSON.parse(read.out) as {
      questions: { collection: string; teach: { suggested: Record<string, unknown> } }[];
    };
    const value = JSON.stringify(out.questions.find((q) => q.collection === 'customers')!.teach.suggested);
    const d = await cli('dry-run', '--collection', 'customers', '--entry', 'northgate', '--value', value);
    expect(d.code).toBe(0);
    expect(d.out).toMatch(/matches 2 message\(s\), for example:/);
    expect(d.out).toMatch(/would newly settle 2 message\(s\)/);
    expect(d.out).toMatch(/would change no settled message/);
    const history = await cli('history');
    expect(history.out).not.toMatch(/billing@origin/);
  });

  it('shows conflicts before a lesson moves settled messages', async () => {
    await cli('read', join(MAIL, 'ng-03-invoice-logistics.eml'));
    const d = await cli(
      'dry-run',
      '--collection',
      'customers',
      '--entry',
      'gulftrade',
      '--value',
      '{"pattern":"invoice", "where":"subject"}',
    );
    // 'invoice' alone is refused by the learnable: too common (§13.1).
    expect(d.code).toBe(1);
    expect(d.err).toMatch(/not a usable pattern/);
    // Teach billing@origin.example to Northgate; the two origin messages now settle on that one point.
    const taught = await cli(
      'teach',
      '--collection',
      'customers',
      '--entry',
      'northgate',
      '--value',
      '{"pattern":"billing@origin\\\\.example","where":"from"}',
      '--by',
      'dana@warehouse.example',
      '--as',
      'ops@warehouse.example',
    );
    expect(taught.code).toBe(0);
    const wide = await cli(
      'dry-run',
      '--collection',
      'customers',
      '--entry',
      'gulftrade',
      '--value',
      '{"pattern":"PA-2026-09\\\\d\\\\d","where":"subject"}',
    );
    expect(wide.code).toBe(0);
    expect(wide.out).toMatch(/matches 2 message\(s\)/);
    expect(wide.out).toMatch(/CONFLICTS: 2 settled message\(s\) would change/);
    expect(wide.out).toMatch(/northgate -> \(unsettled\)/);
  });

  it('refuses to teach what would re-file mail already read, unless the person chooses re-file (§13.1, issue 26)', async () => {
    const teach = (...extra: string[]) =>
      cli(
        'teach',
        '--collection',
        'customers',
        '--entry',
        'gulftrade',
        '--value',
        '{"pattern":"PA-2026-09\\\\d\\\\d","where":"subject"}',
        ...extra,
        '--by',
        'sam@warehouse.example',
        '--as',
        'ops@warehouse.example',
      );
    const refused = await teach();
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(
      /^This would leave undecided 2 messages already read as Northgate Motors Ltd: /m,
    );
    expect((await cli('history')).out).not.toMatch(/customers\/gulftrade/);
    const meant = await teach('--set', 'alreadyRead=re-file');
    expect(meant.code).toBe(0);
    expect(meant.out).toMatch(/Learned: customers\/gulftrade/);
  });

  it('counts the corpus and purges it by age (§13.1)', async () => {
    const count = await cli('corpus', 'count', '--json');
    expect(JSON.parse(count.out)).toEqual({ count: 4 });
    const kept = await cli('corpus', 'purge', '--older-than-days', '1');
    expect(kept.out).toMatch(/^purged 0 message/);
    const all = await cli('corpus', 'purge', '--older-than-days', '0');
    expect(all.out).toMatch(/^purged 4 message/);
  });

  it('refuses a missing file with the usage', async () => {
    const r = await cli('read', join(MAIL, 'nope.eml'));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/cannot open/);
  });
});
