// Invariant (issue 18): the `learnables-triage` command (package.json "bin") runs after `npm ci`
// with no build, from any directory, and exits with the CLI's own code.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  bin: Record<string, string>;
};
const bin = fileURLToPath(new URL(`../../${pkg.bin['learnables-triage']}`, import.meta.url));

describe('the learnables-triage command', () => {
  it('is the package bin and prints the CLI usage from its TypeScript source, from another directory', async () => {
    const { stdout } = await run(process.execPath, [bin, 'help'], { cwd: tmpdir() });
    expect(stdout).toMatch(/^usage: npx learnables-triage <verb> \[options\]/);
  });

  it('passes the CLI exit code on', async () => {
    const failed = await run(process.execPath, [bin, 'no-such-verb'], { cwd: tmpdir() }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect('code' in failed && failed.code).toBe(2);
    expect((failed as { stderr: string }).stderr).toContain('"no-such-verb" is not a learnables-triage verb');
  });
});
