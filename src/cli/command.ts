/**
 * One CLI verb: `learnables-triage <name> [options]`. Each verb is a file in commands/ and one line
 * in the command map of main.ts. `run` returns the exit code (0 when omitted).
 */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  /** The environment, read once by main (DATA_DIR, …). */
  readonly env: Readonly<Record<string, string | undefined>>;
}

export interface Command {
  readonly name: string;
  /** One line for the verb list. */
  readonly summary: string;
  /** Usage text shown by `help <verb>` and after a usage error. */
  readonly usage: string;
  run(args: readonly string[], io: CliIo): Promise<number | void>;
}

/** A mistake in how the command was typed (exit code 2, usage shown). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
