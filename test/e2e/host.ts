/**
 * E2E host helpers: the real composition (main.ts's compose) listening on 127.0.0.1:0 in this
 * process, or `node --import tsx src/main.ts` as a child process with its own environment. Both
 * always await close(); every server gets a fresh temporary data directory.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/config.ts';
import { compose, DEMO_TOKEN_FILE } from '../../src/main.ts';
import { spawnListening } from '../support/listening-child.ts';

export interface Host {
  readonly url: string;
  /** The first-start admin token of the demo tenant (null when this process created none). */
  readonly token: string | null;
  readonly dataDir: string;
  close(): Promise<void>;
}

export function tempDataDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'learnables-e2e-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The composition of main.ts in this process. `env` is what the process environment would hold. */
export async function startInProcess(env: Record<string, string> = {}, dataDir?: string): Promise<Host> {
  const data = dataDir === undefined ? tempDataDir() : { dir: dataDir, remove: () => {} };
  // Quiet unless a test asks for the log (issue 27): `npm test` prints the test report, not servers' logs.
  const config = loadConfig({
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: data.dir,
    LOG_LEVEL: 'silent',
    ...env,
  });
  const composition = await compose(config, { announce: () => {} });
  const { localUrl: url } = await composition.server.listen(0, '127.0.0.1');
  return {
    url,
    token: composition.demoToken,
    dataDir: data.dir,
    async close() {
      await composition.close();
      data.remove();
    },
  };
}

/** A server in a child process: it can also be killed outright, keeping its data directory. */
export interface ChildHost extends Host {
  /** The process id: for SIGSTOP/SIGCONT (a server that stops answering) and as the holder of a mailbox lease (issue 15). */
  readonly pid: number;
  /** SIGKILL, as a crash: resolves once the process is gone; close() still removes the data. */
  crash(): Promise<void>;
}

/** `node --import tsx src/main.ts` with `env`, waiting for its "listening on <url>" line. */
export async function startChild(env: Record<string, string>): Promise<ChildHost> {
  const data = tempDataDir();
  const child = await spawnListening('src/main.ts', {
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: data.dir,
    ...env,
  });
  // env may name a data directory of its own (a restart on another's data): that one is not removed.
  const dataDir = env.DATA_DIR ?? data.dir;
  let token: string | null = null;
  try {
    token = readFileSync(join(dataDir, DEMO_TOKEN_FILE), 'utf8').trim();
  } catch {
    token = null;
  }
  return {
    url: child.url,
    pid: child.pid,
    token,
    dataDir,
    crash: () => child.stop('SIGKILL'),
    async close() {
      await child.stop();
      data.remove();
    },
  };
}

/**
 * The environment of a server that polls one Dovecot mailbox and serves the inbound webhooks of the
 * demo tenant (MAILBOXES, INBOUND_WEBHOOKS), with the secrets in the variables those settings name.
 */
export function mailPipelineEnv(
  imap: { readonly host: string; readonly port: number; readonly user: string; readonly password: string },
  options: { readonly mailbox: string; readonly inboundToken: string; readonly mailgunSigningKey: string },
): Record<string, string> {
  return {
    MAILBOXES: JSON.stringify([
      {
        name: options.mailbox,
        tenant: 'demo',
        host: imap.host,
        port: imap.port,
        secure: false,
        startTls: false,
        user: imap.user,
        passwordEnv: 'E2E_IMAP_PASSWORD',
      },
    ]),
    E2E_IMAP_PASSWORD: imap.password,
    INBOUND_WEBHOOKS: JSON.stringify([
      { tenant: 'demo', tokenEnv: 'E2E_INBOUND_TOKEN', mailgunSigningKeyEnv: 'E2E_MG_KEY' },
    ]),
    E2E_INBOUND_TOKEN: options.inboundToken,
    E2E_MG_KEY: options.mailgunSigningKey,
  };
}
