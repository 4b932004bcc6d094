/** A token of a second tenant (`other`) on a server's data directory, as an operator makes one with the CLI. */
import { cliRun } from '../support/calls.ts';

export async function secondTenantToken(dataDir: string): Promise<string> {
  const made = await cliRun([
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
    '--data-dir',
    dataDir,
    '--json',
  ]);
  if (made.code !== 0) throw new Error(`tokens create failed: ${made.err}`);
  return (JSON.parse(made.out) as { token: string }).token;
}
