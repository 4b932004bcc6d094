/** Starts teach-worker.ts in its own process (node --import tsx) and collects what it reports. */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const WORKER = join(import.meta.dirname, 'teach-worker.ts');

export interface WorkerLine {
  i: number;
  learned: boolean;
  definitionVersion: number;
  versionId: string;
}

export function startWorker(file: string, name: string, count: number | 'forever', wait = true) {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', WORKER, file, name, String(count), ...(wait ? ['--wait'] : [])],
    {
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  const lines: WorkerLine[] = [];
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  let onReady: () => void = () => undefined;
  const ready = new Promise<void>((r) => (onReady = r));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (line === 'ready') onReady();
    else lines.push(JSON.parse(line) as WorkerLine);
  });
  const done = new Promise<WorkerLine[]>((resolve, reject) => {
    child.on('exit', (code, signal) =>
      code === 0 ? resolve(lines) : reject(new Error(`worker ${name} exited ${code ?? signal}: ${stderr}`)),
    );
  });
  // A worker killed on purpose rejects `done`; only callers that await it care.
  done.catch(() => undefined);
  return { child, ready, done, lines };
}
