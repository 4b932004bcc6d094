// Invariant (issue 18, issue 27): the README and the pages under docs/ it sends a reader to are true
// line by line. Every `bash` block in them, extracted from the pages themselves, runs in order (the
// README first, then PAGES) against a started server (each curl must succeed, each pipeline too); a
// block that cannot run here says so in a `<!-- readme-test: skip (why) -->` comment, and there are
// only a few of those.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcess, type Host } from './host.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The pages whose blocks run, in the order a reader meets them (a later page may use an earlier one's state). */
export const PAGES = [
  'README.md',
  'docs/teaching.md',
  'docs/a2a-clients.md',
  'docs/privacy.md',
  'docs/split-topology.md',
  'docs/mail-pipelines.md',
  'docs/operations.md',
  'docs/postgres.md',
  'docs/attachments.md',
  'docs/benchmarks.md',
] as const;
const SKIP = /^<!-- readme-test: skip \((.+)\) -->$/;

interface Block {
  readonly page?: string;
  readonly line: number;
  readonly code: string;
  readonly skip: string | null;
}

/** The README's fenced bash blocks, each with the skip reason of the comment right above it. */
export function shellBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== '```bash') continue;
    const end = lines.indexOf('```', i + 1);
    const above =
      lines
        .slice(0, i)
        .reverse()
        .find((l) => l.trim() !== '') ?? '';
    blocks.push({
      line: i + 1,
      code: lines.slice(i + 1, end).join('\n'),
      skip: SKIP.exec(above)?.[1] ?? null,
    });
    i = end;
  }
  return blocks;
}

const blocks = PAGES.flatMap((page) =>
  shellBlocks(readFileSync(join(ROOT, page), 'utf8')).map((b) => ({ ...b, page })),
);
let host: Host;
let work: string;
const METRICS_TOKEN = 'readme-metrics-token-0123456789';

beforeAll(async () => {
  // A checkout as the README's reader has it: the code, and ./data of the server they started.
  work = mkdtempSync(join(tmpdir(), 'learnables-readme-'));
  for (const name of ['package.json', 'src', 'fixtures', 'examples', 'bin', 'node_modules', 'tsconfig.json'])
    symlinkSync(join(ROOT, name), join(work, name));
  mkdirSync(join(work, 'data'));
  host = await startInProcess({ METRICS_TOKEN }, join(work, 'data'));
}, 60_000);
afterAll(async () => {
  await host?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('the README and its pages', () => {
  it('marks only the blocks that cannot run here, each saying why', () => {
    expect(blocks.length).toBeGreaterThan(10);
    const skipped = blocks.filter((b) => b.skip !== null);
    expect(skipped.map((b) => b.skip)).toHaveLength(9);
    for (const b of skipped) expect(b.skip!.length).toBeGreaterThan(10);
  });

  it('reads every page that has a shell block', () => {
    const withBlocks = readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`)
      .filter((page) => shellBlocks(readFileSync(join(ROOT, page), 'utf8')).length > 0);
    for (const page of withBlocks) expect(PAGES, page).toContain(page);
  });

  it('runs every other shell block, in order, against a started server', async () => {
    const port = new URL(host.url).port;
    const script = [
      'set -euo pipefail',
      // A curl that fails on an HTTP error, so a README call that is refused fails the block.
      'curl() { command curl --silent --show-error --fail-with-body "$@"; }',
      ...blocks
        .filter((b) => b.skip === null)
        .map(
          (b) =>
            `echo "--- ${b.page} line ${b.line}" >&2\n${b.code.replaceAll('127.0.0.1:8080', `127.0.0.1:${port}`)}`,
        ),
    ].join('\n');
    const result = await new Promise<{ code: number; out: string; err: string }>((resolve) => {
      execFile(
        'bash',
        ['-c', script],
        {
          cwd: work,
          env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? work, METRICS_TOKEN },
          timeout: 420_000,
          maxBuffer: 64 * 1024 * 1024,
        },
        (error, stdout, stderr) =>
          resolve({
            code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1,
            out: stdout,
            err: stderr,
          }),
      );
    });
    expect(result.code, `${result.err.slice(-3000)}\n${result.out.slice(-2000)}`).toBe(0);
    // A JSON-RPC refusal comes with HTTP 200: no error object, and no jq filter that found nothing.
    expect(result.out).not.toMatch(/"code": -32\d{3}/);
    expect(result.out.split('\n')).not.toContain('null');
    // What the first steps promise: a question, a lesson learned, the same task then completed.
    expect(result.out).toContain('TASK_STATE_INPUT_REQUIRED');
    expect(result.out).toContain('"learned": true');
    expect(result.out).toContain('"TASK_STATE_COMPLETED"');
    expect(result.out).toMatch(/triage_messages_read_total\{tenant="demo",path="a2a"\} \d+/);
  }, 480_000);
});
