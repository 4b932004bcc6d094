/**
 * A token of a second tenant (`other`), as an operator makes one with the CLI: on a server's data
 * directory, or on the database `env` names (DATABASE_URL).
 */
import { cliRun } from '../support/calls.ts';

export async function secondTenantToken(where: {
  readonly dataDir?: string;
  readonly env?: Readonly<Record<string, string>>;
}): Promise<string> {
  const made = await cliRun(
    [
      'tokens',
      'create',
      '--principal',
      'app:conformance',
      '--kind',
      'application',
      '--roles',
      'read,teach',
      '--tenant',
      'other',
      ...(where.dataDir === undefined ? [] : ['--data-dir', where.dataDir]),
      '--json',
    ],
    where.env,
  );
  if (made.code !== 0) throw new Error(`tokens create failed: ${made.err}`);
  return (JSON.parse(made.out) as { token: string }).token;
}
