// Issue 30: the kit's command line: one line per check and a summary, JUnit XML on request, exit 0
// only when every check held, 1 when one failed, 2 (with the usage, in words) when the command was wrong.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
  it('prints a line per check and a summary, writes JUnit XML, and exits 0 when every MUST held', async () => {
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
    ]);
    expect(r.code).toBe(0);
    const checks = r.out.filter((l) => /^(PASS|FAIL|SKIP) /.test(l));
    expect(checks.length).toBeGreaterThan(20);
    expect(r.out.at(-1)).toMatch(
      /^\d+ checks: \d+ passed, 0 failed, \d+ skipped\. Every MUST the kit could check held\.$/,
    );
    const xml = readFileSync(junit, 'utf8');
    expect(xml.match(/<testcase /g)?.length).toBe(checks.length);
    expect(xml).toContain('failures="0"');
  });

  it('exits 1 and says why when checks fail (a token the agent does not know)', async () => {
    const r = await cli([agent.url, '--token', 'not-a-token', '--adapter', ADAPTER]);
    expect(r.code).toBe(1);
    expect(r.out).toContainEqual(
      expect.stringMatching(
        /^FAIL §7 +activation\.echo\.send\.JSONRPC: A bearer token of this agent is required\.$/,
      ),
    );
    expect(r.out.at(-1)).toMatch(/Some MUSTs did not hold\.$/);
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
