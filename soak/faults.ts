/**
 * Disk faults (issue 16): the server's data directory on a tiny tmpfs (2 MiB; needs root, as the
 * soak's machine is), then filled to the last byte, then made read-only, then given its space back.
 * Each phase tries a write (a triage, a lesson) and the reads (the card, the active head, a stored
 * task), and prints what a caller is told. Nothing is asserted here that the figures do not show:
 * the point is to see writes fail in words, reads keep working, and writes work again after.
 * Cleans up its mount and files whatever happens.
 */
/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment -- wire JSON, read loosely */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mailPart, removeDir, rpc, sendParams, startServer, tempDir, type SoakServer } from './support.ts';

export interface FaultPhase {
  readonly phase: string;
  readonly triage: string;
  readonly lesson: string;
  readonly card: number;
  readonly head: number;
  readonly storedTask: string;
}

const mail = (n: string): string =>
  `From: ops@northgatemotors.example\r\nSubject: Pre-alert FAULT-${n}\r\nMessage-ID: <fault-${n}-${randomUUID()}@origin.example>\r\n\r\nShipment.\r\n`;

function teach(s: SoakServer): Promise<Response> {
  return fetch(`${s.url}/authority/v1/lessons`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${s.token}` },
    body: JSON.stringify({
      collection: 'customers',
      entry: 'northgate',
      value: { pattern: `fault-${randomUUID().slice(0, 8)}@lesson\\.example`, where: 'from' },
      taughtBy: 'dana@warehouse.example',
    }),
  });
}

async function probe(s: SoakServer, phase: string, storedTaskId: string | null): Promise<FaultPhase> {
  const t = await rpc(s, 'SendMessage', sendParams([mailPart(mail(phase))])).catch((e: unknown) => ({
    status: 0,
    body: { error: { message: String(e) } },
  }));
  const task = t.body?.result?.task;
  const triage =
    task?.id !== undefined
      ? `${t.status} ${String(task.status?.state)}`
      : `${t.status} ${String(t.body?.error?.code)}: ${String(t.body?.error?.message).slice(0, 140)}`;
  const l = await teach(s);
  const lb: any = await l.json().catch(() => ({}));
  const lesson = `${l.status} ${lb.error === undefined ? `learned=${String(lb.learned)}` : `${String(lb.error.code)}: ${String(lb.error.message).slice(0, 140)}`}`;
  const card = (await fetch(`${s.url}/.well-known/agent-card.json`)).status;
  const head = (
    await fetch(`${s.url}/authority/v1/head`, { headers: { authorization: `Bearer ${s.token}` } })
  ).status;
  let storedTask = 'none';
  if (storedTaskId !== null) {
    const g = await rpc(s, 'GetTask', { id: storedTaskId, historyLength: 0 });
    storedTask = `${g.status} ${String(g.body?.result?.status?.state ?? g.body?.error?.message)}`;
  }
  return { phase, triage, lesson, card, head, storedTask };
}

export async function runFaults(): Promise<FaultPhase[] | string> {
  const base = tempDir('faults');
  const mount = join(base, 'disk');
  mkdirSync(mount);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mount], { stdio: 'pipe' });
  } catch (e) {
    removeDir(base);
    return `skipped: cannot mount a tmpfs (${String(e).split('\n')[0]}); needs root`;
  }
  const dataDir = join(mount, 'data');
  let server: SoakServer | null = null;
  const phases: FaultPhase[] = [];
  try {
    server = await startServer(dataDir);
    const first = await rpc(server, 'SendMessage', sendParams([mailPart(mail('seed'))]));
    const storedId: string | null = first.body?.result?.task?.id ?? null;
    phases.push(await probe(server, 'space', storedId));
    // fill the disk to the last byte
    const filler = join(mount, 'filler');
    let written = 0;
    // Halving chunks down to one byte: the disk is full to its last byte, not to the last 64 KiB.
    for (let size = 64 * 1024; size >= 1; size = Math.floor(size / 2)) {
      const chunk = Buffer.alloc(size, 1);
      try {
        for (;;) {
          writeFileSync(`${filler}-${written}`, chunk);
          written++;
        }
      } catch {
        written++; // ENOSPC: this size no longer fits (the partial file is removed with the rest)
      }
    }
    // SQLite reuses the room its WAL already holds: write until the disk itself refuses (bounded).
    let accepted = 0;
    for (; accepted < 300; accepted++) {
      const r = await teach(server);
      if (r.status !== 200) break;
    }
    process.stdout.write(`faults: lessons accepted on the full disk before one was refused: ${accepted}\n`);
    phases.push(await probe(server, 'disk full', storedId));
    // Linux refuses to remount read-only a filesystem with a file open for writing (the database),
    // so the read-only case is the full one seen from SQLite: every write refused by the disk.
    try {
      execFileSync('mount', ['-o', 'remount,ro', mount], { stdio: 'pipe' });
      phases.push(await probe(server, 'read-only', storedId));
      execFileSync('mount', ['-o', 'remount,rw', mount], { stdio: 'pipe' });
    } catch {
      // mount point busy: see above
    }
    for (let i = 0; i < written; i++) rmSync(`${filler}-${i}`, { force: true });
    phases.push(await probe(server, 'space back', storedId));
    return phases;
  } finally {
    if (server !== null) await server.child.stop('SIGKILL');
    try {
      execFileSync('umount', [mount], { stdio: 'pipe' });
    } catch {
      // already gone
    }
    removeDir(base);
  }
}

export function printFaults(result: FaultPhase[] | string): void {
  if (typeof result === 'string') {
    process.stdout.write(`faults: ${result}\n`);
    return;
  }
  for (const p of result) {
    process.stdout.write(
      `faults: ${p.phase.padEnd(10)} triage ${p.triage}; lesson ${p.lesson}; card ${p.card}; head ${p.head}; stored task ${p.storedTask}\n`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) printFaults(await runFaults());
