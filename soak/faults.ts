/**
 * Disk faults (issue 16): the server's data directory on a tiny tmpfs (2 MiB; needs root, as the
 * soak's machine is), then filled to the last byte, then made read-only, then given its space back.
 * Each phase tries a write (a triage, a lesson) and the reads (the card, the active head, a stored
 * task), and prints what a caller is told. Nothing is asserted here that the figures do not show:
 * the point is to see writes fail in words, reads keep working, and writes work again after.
 * Cleans up its mount and files whatever happens.
 */
/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-return -- wire JSON, read loosely */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
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

/** Every lesson tried, by its tag (a random 8-hex part of its pattern), and whether it was accepted. */
const lessonsTried = new Map<string, boolean>();

async function teach(s: SoakServer): Promise<{ status: number; body: any }> {
  const tag = randomUUID().slice(0, 8);
  const res = await fetch(`${s.url}/authority/v1/lessons`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${s.token}` },
    body: JSON.stringify({
      collection: 'customers',
      entry: 'northgate',
      value: { pattern: `fault-${tag}@lesson\\.example`, where: 'from' },
      taughtBy: 'dana@warehouse.example',
    }),
  });
  const body: any = await res.json().catch(() => ({}));
  lessonsTried.set(tag, res.status === 200);
  return { status: res.status, body };
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
  const { status, body: lb } = await teach(s);
  const lesson = `${status} ${lb.error === undefined ? `learned=${String(lb.learned)}` : `${String(lb.error.code)}: ${String(lb.error.message).slice(0, 140)}`}`;
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

/** What a verifier finds after the faults, on the data the server kept. */
export interface FaultsVerification {
  /** SQLite `pragma integrity_check` of the database file, after the server stopped ("ok" when sound). */
  readonly integrity: string;
  /** Activations in history, and whether their definitionVersions run 1..n with no gap or repeat. */
  readonly activations: number;
  readonly historyContiguous: boolean;
  /** Versions in history that do not load whole (a version row without its entries). */
  readonly torn: number;
  /** Lessons answered 200 whose activation is missing, and lessons refused that were recorded anyway. */
  readonly acceptedMissing: number;
  readonly refusedRecorded: number;
  readonly lessonsAccepted: number;
  readonly lessonsRefused: number;
  /** Tasks left submitted or working (a task row half-written). */
  readonly stuckTasks: number;
}

export interface FaultsReport {
  readonly phases: readonly FaultPhase[];
  /** Lessons accepted on the full disk before one was refused (SQLite first reuses its WAL's room). */
  readonly acceptedWhenFull: number;
  readonly verification: FaultsVerification;
}

async function authorityGet(s: SoakServer, path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${s.url}/authority/v1${path}`, {
    headers: { authorization: `Bearer ${s.token}` },
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

/** Checks the live server's history and tasks against every lesson tried; the file is checked after. */
async function verifyLive(s: SoakServer): Promise<Omit<FaultsVerification, 'integrity'>> {
  const history: any[] = (await authorityGet(s, '/history?limit=1000')).body?.history ?? [];
  const versions = history.map((a) => Number(a.definitionVersion)).sort((a, b) => a - b);
  const historyContiguous = versions.every((v, i) => v === i + 1);
  let torn = 0;
  for (const id of new Set(history.map((a) => a.versionId).filter((v) => typeof v === 'string'))) {
    if ((await authorityGet(s, `/versions/${encodeURIComponent(id)}`)).status !== 200) torn++;
  }
  const patterns: string[] = history.map((a) => String(a.value?.pattern ?? ''));
  let acceptedMissing = 0;
  let refusedRecorded = 0;
  for (const [tag, accepted] of lessonsTried) {
    const n = patterns.filter((p) => p.includes(`fault-${tag}@`)).length;
    if (accepted && n !== 1) acceptedMissing++;
    if (!accepted && n !== 0) refusedRecorded++;
  }
  let stuckTasks = 0;
  let pageToken = '';
  do {
    const page = await rpc(s, 'ListTasks', { pageSize: 100, pageToken, historyLength: 0 });
    for (const t of page.body?.result?.tasks ?? []) {
      const st = String(t.status?.state);
      if (st === 'TASK_STATE_SUBMITTED' || st === 'TASK_STATE_WORKING') stuckTasks++;
    }
    pageToken = page.body?.result?.nextPageToken ?? '';
  } while (pageToken !== '');
  const tried = [...lessonsTried.values()];
  return {
    activations: history.length,
    historyContiguous,
    torn,
    acceptedMissing,
    refusedRecorded,
    lessonsAccepted: tried.filter((a) => a).length,
    lessonsRefused: tried.filter((a) => !a).length,
    stuckTasks,
  };
}

function integrityOf(dataDir: string): string {
  const db = new Database(join(dataDir, 'learnables-triage.sqlite'), { readonly: true });
  try {
    const rows = db.pragma('integrity_check') as { integrity_check: string }[];
    return rows.map((r) => r.integrity_check).join('; ');
  } finally {
    db.close();
  }
}

/** Starts the server on a read-only DATA_DIR; what a caller is told, or why it would not start. */
async function readOnlyPhase(dataDir: string, storedId: string | null): Promise<FaultPhase> {
  let server: SoakServer | null = null;
  try {
    server = await startServer(dataDir);
    return await probe(server, 'read-only', storedId);
  } catch (e) {
    const said = String(e instanceof Error ? e.message : e)
      .split('\n')
      .filter((l) => l.trim() !== '' && !l.includes('exited with'))
      .slice(0, 1)
      .join(' ');
    const refused = `server does not start: ${said.slice(0, 200)}`;
    return { phase: 'read-only', triage: refused, lesson: '-', card: 0, head: 0, storedTask: '-' };
  } finally {
    if (server !== null) await server.child.stop();
  }
}

export async function runFaults(): Promise<FaultsReport | string> {
  const base = tempDir('faults');
  const mount = join(base, 'disk');
  mkdirSync(mount);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mount], { stdio: 'pipe' });
  } catch (e) {
    removeDir(base);
    return `skipped: cannot mount a tmpfs (${String(e).split('\n')[0]}); needs root`;
  }
  lessonsTried.clear();
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
    let acceptedWhenFull = 0;
    for (; acceptedWhenFull < 300; acceptedWhenFull++) {
      if ((await teach(server)).status !== 200) break;
    }
    phases.push(await probe(server, 'disk full', storedId));
    for (let i = 0; i < written; i++) rmSync(`${filler}-${i}`, { force: true });
    phases.push(await probe(server, 'space back', storedId));
    // Read-only: Linux refuses to remount read-only a filesystem with a file open for writing (the
    // database), so the server is stopped, the disk remounted read-only, and the server started on it.
    await server.child.stop();
    server = null;
    execFileSync('mount', ['-o', 'remount,ro', mount], { stdio: 'pipe' });
    phases.push(await readOnlyPhase(dataDir, storedId));
    execFileSync('mount', ['-o', 'remount,rw', mount], { stdio: 'pipe' });
    server = await startServer(dataDir);
    phases.push(await probe(server, 'writable', storedId));
    const live = await verifyLive(server);
    await server.child.stop();
    server = null;
    return { phases, acceptedWhenFull, verification: { integrity: integrityOf(dataDir), ...live } };
  } finally {
    if (server !== null) await server.child.stop('SIGKILL');
    try {
      execFileSync('mount', ['-o', 'remount,rw', mount], { stdio: 'pipe' });
    } catch {
      // not mounted read-only
    }
    try {
      execFileSync('umount', [mount], { stdio: 'pipe' });
    } catch {
      // already gone
    }
    removeDir(base);
  }
}

/**
 * Held: writes on the full disk refused in words (never internal), reads kept, writes back once space
 * returns, and nothing half-written. The read-only phase is printed, not judged: the server does not
 * yet start on a read-only DATA_DIR (it opens the database for writing).
 */
export function faultsHeld(result: FaultsReport | string): boolean {
  if (typeof result === 'string') return true; // skipped (not root): reported as such
  const v = result.verification;
  const judged = result.phases.filter((p) => p.phase !== 'read-only');
  // Worded: never our internal-error sentence nor the driver's own (a -32603 code with our sentence
  // is the SDK's envelope for a task store error, reported as it is).
  const worded = judged.every(
    (p) => !/INTERNAL|Something went wrong|database or disk is full/.test(`${p.triage} ${p.lesson}`),
  );
  const readsKept = judged.every((p) => p.card === 200 && p.head === 200 && p.storedTask.startsWith('200'));
  const back =
    judged.at(-1)?.lesson.startsWith('200') === true &&
    judged.at(-1)?.triage.startsWith('200 TASK_STATE_COMPLETED') === true;
  return (
    worded &&
    readsKept &&
    back &&
    v.integrity === 'ok' &&
    v.historyContiguous &&
    v.torn === 0 &&
    v.acceptedMissing === 0 &&
    v.refusedRecorded === 0 &&
    v.stuckTasks === 0
  );
}

export function printFaults(result: FaultsReport | string): void {
  if (typeof result === 'string') {
    process.stdout.write(`faults: ${result}\n`);
    return;
  }
  for (const p of result.phases) {
    process.stdout.write(
      `faults: ${p.phase.padEnd(10)} triage ${p.triage}; lesson ${p.lesson}; card ${p.card}; head ${p.head}; stored task ${p.storedTask}\n`,
    );
  }
  const v = result.verification;
  process.stdout.write(
    `faults: ${result.acceptedWhenFull} lessons fitted in the room SQLite already held before the full disk refused one; ` +
      `verifier: integrity_check ${v.integrity}; ${v.activations} activations, contiguous ${v.historyContiguous ? 'yes' : 'NO'}; ` +
      `torn versions ${v.torn}; lessons accepted ${v.lessonsAccepted} (missing ${v.acceptedMissing}), refused ${v.lessonsRefused} (recorded anyway ${v.refusedRecorded}); ` +
      `tasks left half-written ${v.stuckTasks}: ${faultsHeld(result) ? 'nothing half-written' : 'PROBLEMS'}\n`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) printFaults(await runFaults());
