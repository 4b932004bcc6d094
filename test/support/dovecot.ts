/**
 * A real Dovecot IMAP server for one test file: its own scratch directory, port, users and log; started in
 * about 60 ms. Recipe and gotchas: ../shared/notes/dovecot-for-tests.md. Never skips: when Dovecot is
 * missing the setup fails and says how to install it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  closeSync,
  openSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ImapFlow } from 'imapflow';

export interface DovecotOptions {
  /** Override the advertised capabilities (e.g. without IDLE, to prove the polling fallback). */
  readonly capabilities?: string;
  /**
   * Sign-in by OAuth2 bearer token too (SASL XOAUTH2 and OAUTHBEARER): Dovecot's `oauth2` passdb
   * POSTs each token to this introspection URL (RFC 7662 form, `token=…`) and takes the user from
   * its answer `{"active": true, "username": "…"}`. Passwords still work for the test's own clients.
   */
  readonly oauth2IntrospectionUrl?: string;
  /** The bearer mechanisms offered with it; default both (Gmail's); Microsoft 365 offers XOAUTH2 alone. */
  readonly oauth2Mechanisms?: readonly ('xoauth2' | 'oauthbearer')[];
}

export interface Dovecot {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly password: string;
  readonly dir: string;
  /** A connected imapflow client for the test user (the test closes it). */
  client(): Promise<ImapFlow>;
  /** Delivers like an MTA would, without the network (dovecot-lda; it asks the running server for the user). */
  deliver(raw: Buffer | string, folder?: string): void;
  /** Stops the server (only our PIDs). */
  stop(): Promise<void>;
  /** Kills the server abruptly (SIGKILL to the master and its children), as a crash would. */
  kill(): Promise<void>;
  /** Starts it again on the same port and mail directory. */
  restart(): Promise<void>;
  /** Stops the server and removes the scratch directory. */
  dispose(): Promise<void>;
  log(): string;
}

const INSTALL_HINT =
  'The IMAP tests need a real Dovecot. Install it with: apt-get install dovecot-imapd (as root; see ../shared/notes/dovecot-for-tests.md).';

function which(cmd: string): string | null {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}

async function greeting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = netConnect(port, '127.0.0.1');
    let buf = '';
    const done = (ok: boolean): void => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(2_000, () => done(false));
    sock.on('data', (d: Buffer) => {
      buf += d.toString('latin1');
      if (buf.includes('\n')) done(buf.startsWith('* OK'));
    });
    sock.on('error', () => done(false));
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function childrenOf(pid: number): number[] {
  const r = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' });
  return r.stdout
    .split('\n')
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isInteger(n) && n > 0);
}

function alive(pid: number): boolean {
  try {
    // A daemon's zombie (no init reaping it in a container) counts as gone.
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

export async function startDovecot(options: DovecotOptions = {}): Promise<Dovecot> {
  const bin = which('dovecot');
  if (bin === null) throw new Error(INSTALL_HINT);
  const root = process.getuid?.() === 0;
  const id = (flag: string): string => execFileSync('id', [flag], { encoding: 'utf8' }).trim();
  const MU = root ? 'nobody' : id('-un');
  const MG = root ? 'nogroup' : id('-gn');
  const IU = root ? 'dovecot' : MU;
  const IG = root ? 'dovecot' : MG;
  const LU = root ? 'dovenull' : MU;

  const dir = mkdtempSync(join(tmpdir(), 'dovecot-'));
  chmodSync(dir, 0o755);
  mkdirSync(join(dir, 'run'));
  mkdirSync(join(dir, 'mail'));
  if (root) {
    const uid = Number(execFileSync('id', ['-u', MU], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('getent', ['group', MG], { encoding: 'utf8' }).split(':')[2]);
    chownSync(join(dir, 'mail'), uid, gid);
  }
  const user = 'agent@example.test';
  const password = `pw-${randomBytes(6).toString('hex')}`;
  writeFileSync(join(dir, 'users'), `${user}:{PLAIN}${password}::::::\n`);
  const port = await freePort();
  const conf = join(dir, 'dovecot.conf');
  const oauth2 = options.oauth2IntrospectionUrl;
  const bearer = (options.oauth2Mechanisms ?? ['xoauth2', 'oauthbearer']).join(' ');
  if (oauth2 !== undefined) {
    writeFileSync(
      join(dir, 'dovecot-oauth2.conf.ext'),
      `introspection_mode = post
introspection_url = ${oauth2}
force_introspection = yes
username_attribute = username
active_attribute = active
active_value = true
`,
    );
  }
  writeFileSync(
    conf,
    `base_dir = ${dir}/run
state_dir = ${dir}/run
log_path = ${dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login${oauth2 === undefined ? '' : ` ${bearer}\nauth_verbose = yes`}
auth_failure_delay = 0
default_internal_user = ${IU}
default_internal_group = ${IG}
default_login_user = ${LU}
mail_location = maildir:${dir}/mail/%u
${
  oauth2 === undefined
    ? ''
    : `passdb {
  driver = oauth2
  mechanisms = ${bearer}
  args = ${dir}/dovecot-oauth2.conf.ext
}
`
}passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/users
}
userdb {
  driver = passwd-file
  args = username_format=%u ${dir}/users
  default_fields = uid=${MU} gid=${MG} home=${dir}/mail/%u
}
service anvil {
  chroot =
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
protocol imap {
  mail_max_userip_connections = 50
${options.capabilities === undefined ? '' : `  imap_capability = ${options.capabilities}\n`}}
namespace inbox {
  inbox = yes
  separator = /
}
`,
  );
  const lda = join(
    execFileSync(bin, ['-c', conf, '-a'], { encoding: 'utf8' }).match(/^libexec_dir = (.*)$/m)?.[1] ??
      '/usr/lib/dovecot',
    'dovecot-lda',
  );

  async function start(): Promise<void> {
    // Dovecot daemonizes; its output goes to a file, not a pipe the daemon would keep open.
    const out = openSync(join(dir, 'start.out'), 'w');
    const r = spawnSync(bin!, ['-c', conf], { stdio: ['ignore', out, out] });
    closeSync(out);
    if (r.status !== 0) {
      throw new Error(
        `dovecot did not start (exit ${r.status}): ${readFileSync(join(dir, 'start.out'), 'utf8')}\n${readLog()}`,
      );
    }
    for (let i = 0; i < 100; i++) {
      if (await greeting(port)) return;
      await sleep(50);
    }
    throw new Error(`dovecot gave no IMAP greeting on port ${port}:\n${readLog()}`);
  }

  function readLog(): string {
    try {
      return readFileSync(join(dir, 'dovecot.log'), 'utf8');
    } catch {
      return '';
    }
  }

  function masterPid(): number | null {
    try {
      return Number(readFileSync(join(dir, 'run', 'master.pid'), 'utf8').trim());
    } catch {
      return null;
    }
  }

  async function halt(signal: NodeJS.Signals): Promise<void> {
    const pid = masterPid();
    if (pid === null || !alive(pid)) return;
    const kids = childrenOf(pid);
    // The master first: it would respawn a killed child (and keep its socket) otherwise.
    safeKill(pid, signal);
    if (signal === 'SIGKILL') for (const k of kids) safeKill(k, 'SIGKILL');
    for (let i = 0; i < 50 && alive(pid); i++) await sleep(100);
    for (const k of kids) safeKill(k, 'SIGKILL');
    rmSync(join(dir, 'run', 'master.pid'), { force: true });
  }

  await start();
  return {
    host: '127.0.0.1',
    port,
    user,
    password,
    dir,
    async client() {
      const c = new ImapFlow({
        host: '127.0.0.1',
        port,
        secure: false,
        doSTARTTLS: false,
        auth: { user, pass: password },
        logger: false,
      });
      c.on('error', () => {});
      await c.connect();
      return c;
    },
    deliver(raw, folder) {
      const args = ['-c', conf, '-d', user, ...(folder === undefined ? [] : ['-m', folder])];
      const r = spawnSync(lda, args, { input: raw });
      if (r.status !== 0) throw new Error(`dovecot-lda failed (${r.status}): ${r.stderr.toString()}`);
    },
    stop: () => halt('SIGTERM'),
    kill: () => halt('SIGKILL'),
    restart: start,
    async dispose() {
      await halt('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
    log: readLog,
  };
}

function safeKill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}
