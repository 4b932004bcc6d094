/**
 * A Node script run as a child process (`node --import tsx <script>` from the checkout's root),
 * ready once it prints "listening on <url>". The one spawn-and-wait used by the e2e host, the
 * server benchmark's minimal agent and the learning simulation.
 */
import { spawn, type ChildProcess } from 'node:child_process';

const ROOT = new URL('../..', import.meta.url).pathname;

export interface ListeningChild {
  readonly url: string;
  readonly pid: number;
  /** Whether the process has exited (on its own or by a signal). */
  exited(): boolean;
  /** Sends `signal` (SIGTERM by default) unless it has exited, and resolves once it is gone. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts `script` with exactly `env` (plus PATH), and resolves with the URL it listens on; rejects,
 * with everything it printed, when it exits first. `root` is the checkout it runs from (default
 * this one; the interleaved bench runs another revision's).
 */
export async function spawnListening(
  script: string,
  env: Record<string, string>,
  root: string = ROOT,
): Promise<ListeningChild> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const m = /listening on (http:\/\/\S+)/.exec(output);
      if (m !== null) resolve(m[1]!);
    });
    child.stderr!.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.once('exit', (code) =>
      reject(new Error(`${script} exited with ${code} before listening:\n${output}`)),
    );
  });
  const exited = (): boolean => child.exitCode !== null || child.signalCode !== null;
  return {
    url,
    pid: child.pid!,
    exited,
    async stop(signal = 'SIGTERM') {
      if (exited()) return;
      const gone = new Promise((r) => child.once('exit', r));
      child.kill(signal);
      await gone;
    },
  };
}
