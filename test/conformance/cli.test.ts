// Issue 30: the kit's command line: one line per check and a summary, JUnit XML on request, exit 0
// only when every check held, 1 when one failed, 2 (with the usage, in words) when the command was wrong.
// Issue 42: --strict also exits 1 when a MUST went unchecked; an adapter that does not fit the agent
// (or the default adapter, for an agent it does not recognise) exits 2 and checks nothing.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../conformance/src/cli.ts';
import { startTinyAgent, type TinyAgent } from './tiny-agent.ts';

const ADAPTER = 'test/conformance/tiny-adapter.ts';
let agent: TinyAgent;
let dir: string;

beforeAll(async () => {
  agent = await startTinyAgent();
  dir = mkdtempSync(join(tmpdir(), 'learnables-conformance-cli-'));
});
afterAll(async () => {
  await agent.close();
  rmSync(dir, { recursive: true, force: true });
});

async function cli(argv: string[]): Promise<{ code: number; out: string[]; err: string }> {
  const out: string[] = [];
  let err = '';
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => (err += `${l}\n`) });
  return { code, out, err };
}

describe('learnables-conformance, the command', () => {
  it('prints a line per check and a summary, writes JUnit XML, and exits 0 in strict mode when every MUST was checked and held', async () => {
    const junit = join(dir, 'results.xml');
    const r = await cli([
      agent.url,
      '--token',
      agent.tokens[0],
      '--second-token',
      agent.tokens[1],
      '--adapter',
      ADAPTER,
      '--junit',
      junit,
      '--strict',
    ]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const checks = r.out.filter((l) => /^(PASS|FAIL|SKIP|N\/A) /.test(l));
    expect(checks.length).toBeGreaterThan(20);
    expect(checks.filter((l) => l.startsWith('N/A '))).toEqual([
      expect.stringMatching(
        /^N\/A {2}§7 +activation\.echo\.stream\.JSONRPC: the card does not declare streaming$/,
      ),
    ]);
    expect(r.out.at(-1)).toMatch(
      /^\d+ checks: \d+ passed, 0 failed, 0 skipped, 1 not applicable\. Every MUST that applies was checked and held\.$/,
    );
    const xml = readFileSync(junit, 'utf8');
    expect(xml.match(/<testcase /g)?.length).toBe(checks.length);
    expect(xml).toContain('failures="0"');
    expect(xml).toContain('<skipped message="not applicable: the card does not declare streaming"/>');
  });

  it('exits 1 in strict mode when a MUST went unchecked (no second tenant), naming it and why; 0 without --strict', async () => {
    const args = [agent.url, '--token', agent.tokens[0], '--adapter', ADAPTER];
    const strict = await cli([...args, '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.err).toContain('learnables-conformance: strict: 3 MUST(s) left unchecked:');
    for (const id of ['auth.tenant.get', 'auth.tenant.list', 'auth.tenant.lesson'])
      expect(strict.err).toContain(`§13.2 ${id}: no second tenant's token (--second-token)`);
    expect(strict.out.at(-1)).toMatch(/0 failed, 3 skipped, .* Every MUST the kit could check held\.$/);
    expect((await cli(args)).code).toBe(0);
  });

  it("exits 2 and checks nothing when the agent refuses the adapter's input (a token it does not know)", async () => {
    const r = await cli([agent.url, '--token', 'not-a-token', '--adapter', ADAPTER]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /^learnables-conformance: nothing was checked: the agent refused the adapter's undecidable input .* on JSONRPC: A bearer token of this agent is required\. \(is the token one of this agent's\?/,
    );
    expect(r.out.filter((l) => /^(PASS|FAIL|SKIP|N\/A) /.test(l))).toEqual([]);
  });

  it('takes the token from a command', async () => {
    const r = await cli([agent.url, '--token-command', `echo ${agent.tokens[0]}`, '--adapter', ADAPTER]);
    expect(r.code).toBe(0);
  });

  it.each([
    [[], /give one agent base URL \(got 0\)/],
    [['ftp://x'], /"ftp:\/\/x" is not an http\(s\) URL/],
    [['http://127.0.0.1:1'], /give the agent's token with --token T or --token-command CMD/],
    [
      ['http://127.0.0.1:1', '--token', 'a', '--token-command', 'echo b'],
      /give --token or --token-command, not both/,
    ],
    [['http://127.0.0.1:1', '--token-command', 'exit 3'], /--token-command "exit 3" failed/],
    [
      ['http://127.0.0.1:1', '--token', 't', '--adapter', 'no/such/adapter.ts'],
      /cannot load the adapter .*no\/such\/adapter\.ts/,
    ],
    [
      ['http://127.0.0.1:1', '--token', 't', '--adapter', 'conformance/src/report.ts'],
      /must export .* an object with name, undecidable, answer, lesson/,
    ],
    [['http://127.0.0.1:1', '--frobnicate'], /Unknown option '--frobnicate'/],
  ])('refuses %j with exit 2 and the usage', async (argv, words) => {
    const r = await cli(argv);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(words);
    expect(r.err).toContain('usage: learnables-conformance <agent base URL> --token T');
    expect(r.out).toEqual([]);
  });
});

describe('learnables-conformance, given the card URL itself', () => {
  it('reads the card there and checks the agent it describes', async () => {
    const r = await cli([
      `${agent.url}/.well-known/agent-card.json`,
      '--token',
      agent.tokens[0],
      '--adapter',
      ADAPTER,
    ]);
    expect(r.code).toBe(0);
  });

  it('says when there is no card there', async () => {
    const r = await cli([`${agent.url}/nothing.json`, '--token', agent.tokens[0], '--adapter', ADAPTER]);
    expect(r.code).toBe(1);
    expect(r.out).toContainEqual(
      expect.stringMatching(
        /^FAIL §6 +card\.fetch: GET http:\/\/127\.0\.0\.1:\d+\/nothing\.json answered 404/,
      ),
    );
  });
});

describe('learnables-conformance with a second token the agent does not know', () => {
  it('fails §13.2 instead of passing isolation checks it could not make', async () => {
    const r = await cli([
      agent.url,
      '--token',
      agent.tokens[0],
      '--second-token',
      'not-a-token',
      '--adapter',
      ADAPTER,
    ]);
    expect(r.code).toBe(1);
    expect(r.out).toContainEqual(
      expect.stringMatching(/^FAIL §13\.2 +auth\.tenant\.token: the agent refused the second tenant's token/),
    );
    expect(r.out).toContainEqual(
      expect.stringMatching(/^SKIP §13\.2 +auth\.tenant\.get: the second tenant's token was refused$/),
    );
  });
});

describe('learnables-conformance with an adapter that does not fit the agent', () => {
  /** An adapter file in the test's folder: the tiny adapter with `members` replaced (source text). */
  function adapterWith(name: string, members: string): string {
    const file = join(dir, `${name}.ts`);
    const base = new URL('./tiny-adapter.ts', import.meta.url).pathname;
    writeFileSync(file, `import base from '${base}';\nexport default { ...base, ${members} };\n`);
    return file;
  }

  it.each([
    [
      'an input the agent decides alone',
      "undecidable: () => ({ parts: [{ data: { expense: { vendor: 'Skyline Taxis', amount: '1' } } }] })",
      /the adapter's undecidable input \S+ did not leave a task in input-required on JSONRPC: it came back TASK_STATE_COMPLETED; give an input this agent asks about$/,
    ],
    [
      'an answer that does not finish the task',
      "answer: () => ({ parts: [{ data: { entry: 'nowhere' } }] })",
      /the adapter's answer to \S+ did not finish its task: it ended TASK_STATE_INPUT_REQUIRED$/,
    ],
    [
      'a prepared lesson the agent refuses',
      "prepare: () => [{ collection: 'cost-centres', entry: 'nowhere', value: { vendor: 'Acme' } }]",
      /the adapter's prepared lesson for cost-centres\/nowhere was refused: There is no cost centre "nowhere"/,
    ],
  ])('exits 2 with one adapter error for %s, and checks nothing', async (what, members, words) => {
    const file = adapterWith(what.replaceAll(' ', '-'), members);
    const r = await cli([agent.url, '--token', agent.tokens[0], '--adapter', file, '--strict']);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toEqual([
      expect.stringMatching(/^learnables-conformance: nothing was checked: /),
    ]);
    expect(r.err.trim()).toMatch(words);
    expect(r.out.filter((l) => /^(PASS|FAIL|SKIP|N\/A) /.test(l))).toEqual([]);
  });

  it('uses the default adapter only for an agent whose card it recognises: exit 2 for another, naming it', async () => {
    const r = await cli([agent.url, '--token', agent.tokens[0]]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /nothing was checked: the default adapter \("learnables-triage \(demo tenant\)"\) is written for another agent, and does not recognise the card of "Expense filer" \(collections "cost-centres"\): give this agent's own adapter with --adapter FILE/,
    );
  });
});
