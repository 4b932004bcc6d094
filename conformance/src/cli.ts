/**
 * `learnables-conformance <agent base URL> --token T [--adapter FILE] [--junit FILE] [--strict]`:
 * runs the kit, prints one line per check and a summary, writes JUnit XML on request. Exit 0 only
 * when no check failed (and, with --strict, none was skipped); 1 when one did; 2 when the command
 * itself was wrong (said on stderr, with the usage) or the adapter does not fit the agent (said on
 * stderr, and nothing is checked).
 */
import { execSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { ConformanceAdapter } from './adapter.ts';
import { runConformance, AdapterMisfit } from './kit.ts';
import { junit, line, summary, unchecked, words } from './report.ts';

const USAGE = `usage: learnables-conformance <agent base URL> --token T [options]
  <agent base URL>           where /.well-known/agent-card.json is; or the card's own URL (ending .json)
  --token T                  a bearer token of the agent (its first tenant)
  --token-command CMD        a command that prints the token instead (run by the shell)
  --second-token T           a token of another tenant, for the isolation checks (§13.2)
  --second-token-command CMD a command that prints it
  --adapter FILE             the adapter module (default: the learnables-triage adapter, adapters/learnables-triage.ts)
  --taught-by WHO            the person lessons are taught as (default: conformance@example.org)
  --junit FILE               also write the results as JUnit XML to FILE
  --strict                   also exit 1 when a MUST was left unchecked (SKIP), naming each and why
  --help                     this text
exit: 0 every MUST checked held; 1 one failed (or, with --strict, one went unchecked);
      2 the command was wrong, or the adapter does not fit the agent (nothing was checked)`;

export interface Io {
  out(line: string): void;
  err(line: string): void;
}

const DEFAULT_ADAPTER = new URL('../adapters/learnables-triage.ts', import.meta.url);

export async function main(argv: readonly string[], io: Io = consoleIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        token: { type: 'string' },
        'token-command': { type: 'string' },
        'second-token': { type: 'string' },
        'second-token-command': { type: 'string' },
        adapter: { type: 'string' },
        'taught-by': { type: 'string' },
        junit: { type: 'string' },
        strict: { type: 'boolean' },
        help: { type: 'boolean' },
      },
    });
  } catch (e) {
    return usageError(io, words(e));
  }
  const { values, positionals } = parsed;
  if (values.help === true) {
    io.out(USAGE);
    return 0;
  }
  if (positionals.length !== 1) return usageError(io, `give one agent base URL (got ${positionals.length})`);
  const baseUrl = positionals[0]!;
  if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol))
    return usageError(
      io,
      `"${baseUrl}" is not an http(s) URL; give the agent's base URL, e.g. http://127.0.0.1:8080`,
    );
  let token: string | null;
  let secondToken: string | null;
  let adapter: ConformanceAdapter;
  try {
    token = tokenFrom(values.token, values['token-command'], '--token');
    secondToken = tokenFrom(values['second-token'], values['second-token-command'], '--second-token');
    adapter = await loadAdapter(
      values.adapter === undefined ? DEFAULT_ADAPTER : pathToFileURL(resolve(values.adapter)),
    );
  } catch (e) {
    return usageError(io, words(e));
  }
  if (token === null) return usageError(io, "give the agent's token with --token T or --token-command CMD");
  io.out(
    `learnables-conformance: ${baseUrl}, adapter "${adapter.name}"${values.strict === true ? ', strict' : ''}`,
  );
  let results;
  try {
    results = await runConformance({
      baseUrl,
      credentials: { token, secondToken },
      adapter,
      defaultAdapter: values.adapter === undefined,
      taughtBy: values['taught-by'] ?? 'conformance@example.org',
      onResult: (r) => io.out(line(r)),
    });
  } catch (e) {
    if (!(e instanceof AdapterMisfit)) throw e;
    io.err(`learnables-conformance: nothing was checked: ${e.message}`);
    return 2;
  }
  io.out(summary(results));
  if (values.junit !== undefined)
    writeFileSync(values.junit, junit(results, `learnables-conformance ${baseUrl}`));
  if (results.some((r) => r.status === 'FAIL')) return 1;
  const skipped = unchecked(results);
  if (values.strict === true && skipped.length > 0) {
    io.err(`learnables-conformance: strict: ${skipped.length} MUST(s) left unchecked:`);
    for (const s of skipped) io.err(`  ${s}`);
    return 1;
  }
  return 0;
}

function tokenFrom(literal: string | undefined, command: string | undefined, flag: string): string | null {
  if (literal !== undefined && command !== undefined)
    throw new Error(`give ${flag} or ${flag}-command, not both`);
  if (literal !== undefined) return literal.trim() === '' ? null : literal.trim();
  if (command === undefined) return null;
  let printed: string;
  try {
    printed = execSync(command, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch (e) {
    throw new Error(`${flag}-command "${command}" failed: ${words(e).split('\n')[0]}`);
  }
  if (printed === '') throw new Error(`${flag}-command "${command}" printed nothing`);
  return printed;
}

async function loadAdapter(url: URL): Promise<ConformanceAdapter> {
  let module: Record<string, unknown>;
  try {
    module = (await import(url.href)) as Record<string, unknown>;
  } catch (e) {
    throw new Error(`cannot load the adapter ${url.pathname}: ${words(e)}`);
  }
  const adapter = (module.default ?? module.adapter) as Partial<ConformanceAdapter> | undefined;
  const missing = (['name', 'undecidable', 'answer', 'lesson'] as const).filter(
    (k) => adapter?.[k] === undefined,
  );
  if (adapter === undefined || missing.length > 0)
    throw new Error(
      `the adapter ${url.pathname} must export (as default or "adapter") an object with ${missing.join(', ')}`,
    );
  return adapter as ConformanceAdapter;
}

function usageError(io: Io, message: string): number {
  io.err(`learnables-conformance: ${message}`);
  io.err(USAGE);
  return 2;
}

const consoleIo: Io = {
  out: (l) => process.stdout.write(`${l}\n`),
  err: (l) => process.stderr.write(`${l}\n`),
};
