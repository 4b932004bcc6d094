#!/usr/bin/env node
/**
 * `npx learnables-triage <verb>`: the operator's command line. Dispatches through one command map;
 * adding a verb is one file in commands/ and one line below. A DomainError prints its message (no
 * stack) and exits 1; a usage mistake prints the verb's usage and exits 2.
 */
import { pathToFileURL } from 'node:url';
import { isDomainError } from '../domain/errors.ts';
import { UsageError, type CliIo, type Command } from './command.ts';
import { corpusCommand } from './commands/corpus.ts';
import { dryRunCommand } from './commands/dry-run.ts';
import { eraseCommand } from './commands/erase.ts';
import { historyCommand } from './commands/history.ts';
import { importCommand } from './commands/import.ts';
import { migrateToPostgresCommand } from './commands/migrate-to-postgres.ts';
import { readCommand } from './commands/read.ts';
import { revertCommand } from './commands/revert.ts';
import { rollbackCommand } from './commands/rollback.ts';
import { rulesCommand } from './commands/rules.ts';
import { showCommand } from './commands/show.ts';
import { teachCommand } from './commands/teach.ts';
import { tokensCommand } from './commands/tokens.ts';

/** The command map: verb -> command. */
const COMMANDS: ReadonlyMap<string, Command> = new Map(
  [
    teachCommand,
    historyCommand,
    showCommand,
    rollbackCommand,
    revertCommand,
    eraseCommand,
    importCommand,
    rulesCommand,
    tokensCommand,
    readCommand,
    dryRunCommand,
    corpusCommand,
    migrateToPostgresCommand,
  ].map((c) => [c.name, c] as const),
);

function overview(): string {
  const width = Math.max(...[...COMMANDS.keys()].map((k) => k.length));
  const verbs = [...COMMANDS.values()].map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    'usage: npx learnables-triage <verb> [options]',
    '',
    'verbs:',
    ...verbs,
    '',
    'npx learnables-triage help <verb> shows a verb\u2019s options.',
  ].join('\n');
}

/** Runs one invocation; returns the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [verb, ...rest] = argv;
  if (verb === undefined || verb === 'help' || verb === '--help' || verb === '-h') {
    const topic = verb === 'help' && rest[0] !== undefined ? COMMANDS.get(rest[0]) : undefined;
    io.out(topic === undefined ? overview() : `usage: ${topic.usage}`);
    return verb === undefined ? 2 : 0;
  }
  const command = COMMANDS.get(verb);
  if (command === undefined) {
    io.err(`"${verb}" is not a learnables-triage verb.\n\n${overview()}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(`usage: ${command.usage}`);
    return 0;
  }
  try {
    return (await command.run(rest, io)) ?? 0;
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`${verb}: ${e.message}\n\nusage: ${command.usage}`);
      return 2;
    }
    if (isDomainError(e)) {
      io.err(e.message);
      return 1;
    }
    throw e;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // `npx learnables-triage history | head` closes the pipe early; that is not a failure.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
    throw e;
  });
  const io: CliIo = {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    env: process.env,
  };
  runCli(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(
        `learnables-triage: unexpected failure: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
      );
      process.exitCode = 70;
    },
  );
}
