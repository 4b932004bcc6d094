/**
 * The operator's command line against a server's data directory, in this process: what a person
 * does to add a tenant (`import`) or a token (`tokens create`) next to a running server.
 */
import { runCli } from '../../src/cli/main.ts';

/** Runs one CLI verb with `--data-dir dataDir`; resolves to what it printed, or throws with its error. */
export async function cliIn(dataDir: string, argv: readonly string[]): Promise<string> {
  let out = '';
  let err = '';
  const code = await runCli([...argv, '--data-dir', dataDir], {
    out: (l) => (out += `${l}\n`),
    err: (l) => (err += `${l}\n`),
    env: {},
  });
  if (code !== 0) throw new Error(`learnables-triage ${argv.join(' ')} exited ${code}: ${err}`);
  return out;
}

/** A new person token for `tenant`, as `tokens create` prints it. */
export async function personToken(
  dataDir: string,
  tenant: string,
  principal: string,
  roles: string,
): Promise<string> {
  const out = await cliIn(dataDir, [
    'tokens',
    'create',
    '--tenant',
    tenant,
    '--principal',
    principal,
    '--kind',
    'person',
    '--roles',
    roles,
    '--json',
  ]);
  return (JSON.parse(out) as { token: string }).token;
}
