/**
 * `npm run conformance:topologies` (issues 30 and 42, run by .ci/run): the conformance kit as
 * another implementation gets it, `npm pack`ed from conformance/ and installed in an empty folder,
 * run in strict mode with a second tenant against this server in three topologies, each a set of
 * real processes: one process on SQLite; agent and authority in two processes (§12.1); one process
 * on PostgreSQL (a throwaway cluster, or the server DATABASE_URL names). JUnit XML for each goes to
 * test-results/conformance-<topology>.xml. Exits 1 when a check failed or went unchecked anywhere.
 * `--from-source` runs the kit from this checkout instead (no pack, no install).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { spawnListening, type ListeningChild } from '../test/support/listening-child.ts';
import { startCluster } from '../test/support/postgres.ts';
import { secondTenantToken } from '../test/conformance/tokens.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const RESULTS = join(ROOT, 'test-results');

/**
 * The kit's command: packed from conformance/ and installed into an empty folder, with nothing of
 * this checkout's node_modules in reach (its own dependencies come from the registry); or, with
 * `--from-source`, this checkout's. Returns the bin to run and the folder to run it in.
 */
function installKit(fromSource: boolean): { bin: string; cwd: string; remove(): void } {
  if (fromSource)
    return { bin: join(ROOT, 'conformance/bin/learnables-conformance.js'), cwd: ROOT, remove: () => {} };
  const folder = mkdtempSync(join(tmpdir(), 'learnables-conformance-package-'));
  const npm = (args: string[], cwd: string): string =>
    execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  npm(['pack', '--pack-destination', folder, '--silent'], join(ROOT, 'conformance'));
  const tarball = readdirSync(folder).find((f) => f.endsWith('.tgz'));
  if (tarball === undefined) throw new Error(`npm pack left no tarball in ${folder}`);
  const project = join(folder, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'kit-user', private: true }));
  npm(['install', '--no-audit', '--no-fund', '--silent', join(folder, tarball)], project);
  console.log(`== the kit, packed (${tarball}) and installed in the empty folder ${project}`);
  return {
    bin: join(project, 'node_modules/.bin/learnables-conformance'),
    cwd: project,
    remove: () => rmSync(folder, { recursive: true, force: true }),
  };
}

interface Topology {
  readonly name: string;
  /** Starts the processes; what the kit is given, and how to stop them. */
  start(): Promise<{ url: string; args: string[]; env: Record<string, string>; stop(): Promise<void> }>;
}

/** A data directory removed when the topology stops. */
function dataDir(): string {
  return mkdtempSync(join(tmpdir(), 'learnables-conformance-'));
}

const server = (env: Record<string, string>): Promise<ListeningChild> =>
  spawnListening('src/main.ts', { HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', ...env });

const demoToken = (dir: string): string => readFileSync(join(dir, 'demo-token'), 'utf8').trim();

const oneProcess: Topology = {
  name: 'one-process',
  async start() {
    const dir = dataDir();
    const child = await server({ DATA_DIR: dir });
    return {
      url: child.url,
      args: ['--token', demoToken(dir), '--second-token', await secondTenantToken({ dataDir: dir })],
      env: {},
      stop: async () => {
        await child.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

/** §12.1: the agent keeps no definitions; lessons go through it to its authority (the adapter's AUTHORITY_URL). */
const split: Topology = {
  name: 'agent-and-authority',
  async start() {
    const authorityDir = dataDir();
    const agentDir = dataDir();
    const authority = await server({ ROLE: 'authority', DATA_DIR: authorityDir });
    const authorityToken = demoToken(authorityDir);
    const agent = await server({
      DATA_DIR: agentDir,
      AUTHORITY_URL: authority.url,
      AUTHORITY_TOKEN: authorityToken,
    });
    return {
      url: agent.url,
      // The agent serves the one tenant its AUTHORITY_TOKEN names: another tenant's token is refused work.
      args: [
        '--token',
        demoToken(agentDir),
        '--second-token',
        await secondTenantToken({ dataDir: agentDir }),
      ],
      env: { AUTHORITY_URL: authority.url, AUTHORITY_TOKEN: authorityToken },
      stop: async () => {
        await agent.stop();
        await authority.stop();
        rmSync(agentDir, { recursive: true, force: true });
        rmSync(authorityDir, { recursive: true, force: true });
      },
    };
  },
};

const postgres: Topology = {
  name: 'postgresql',
  async start() {
    const cluster = await startCluster();
    const database = `conformance_${process.pid}`;
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query(`create database ${database}`);
    await admin.end();
    const url = new URL(cluster.url);
    url.pathname = `/${database}`;
    const dir = dataDir();
    const env = { DATA_DIR: dir, DATABASE_URL: url.href };
    const child = await server(env);
    return {
      url: child.url,
      args: ['--token', demoToken(dir), '--second-token', await secondTenantToken({ env })],
      env: {},
      stop: async () => {
        await child.stop();
        const drop = new pg.Client({ connectionString: cluster.url });
        await drop.connect();
        await drop.query(`drop database if exists ${database} with (force)`);
        await drop.end();
        await cluster.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

/** The kit's command in strict mode, as a child process; its exit code. */
function runKit(
  kit: { bin: string; cwd: string },
  url: string,
  args: readonly string[],
  env: Record<string, string>,
  junit: string,
): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [kit.bin, url, ...args, '--strict', '--junit', junit], {
      cwd: kit.cwd,
      env: { ...process.env, ...env },
      stdio: 'inherit',
    });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

async function main(): Promise<number> {
  mkdirSync(RESULTS, { recursive: true });
  const kit = installKit(process.argv.includes('--from-source'));
  const outcomes: string[] = [];
  let failed = false;
  try {
    for (const topology of [oneProcess, split, postgres]) {
      console.log(`\n== conformance: ${topology.name}`);
      const started = await topology.start();
      try {
        const code = await runKit(
          kit,
          started.url,
          started.args,
          started.env,
          join(RESULTS, `conformance-${topology.name}.xml`),
        );
        failed ||= code !== 0;
        outcomes.push(
          `${topology.name}: ${code === 0 ? 'every MUST that applies was checked and held (strict)' : `exit ${code}`}`,
        );
      } finally {
        await started.stop();
      }
    }
  } finally {
    kit.remove();
  }
  console.log(`\n== conformance in three topologies\n${outcomes.join('\n')}`);
  return failed ? 1 : 0;
}

process.exitCode = await main();
