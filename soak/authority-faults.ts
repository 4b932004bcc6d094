/**
 * The authority down or slow in the split topology (issue 16, §12.1): an authority process
 * (ROLE=authority) and an agent process resolving definitions from it (AUTHORITY_URL), both real,
 * over loopback. Each fault is tried in turn: slow (the authority SIGSTOPped: it accepts connections
 * and never answers) and down (SIGKILLed: connections refused). During each, through the agent: new
 * triage, show-back, an answer to a parked question, rules in force, a lesson posted to the agent,
 * /readyz; then the authority is continued (SIGCONT) or restarted on the same port and data, and the
 * soak measures how long the agent takes to recover by itself (show-back answers again) and to read
 * under a lesson taught after it. The behaviour it shows is the README's "When the authority is down
 * or slow". Figures only: run.ts judges them (`authorityFaultsHeld`).
 *
 * Does not: fault the agent's own storage (soak/faults.ts) or kill the agent (soak/crash.ts).
 */
/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-argument -- wire JSON, read loosely */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXTENSION_URI } from '../src/domain/extension.ts';
import { DEMO_TOKEN_FILE } from '../src/main.ts';
import { spawnListening, type ListeningChild } from '../test/support/listening-child.ts';
import { mailPart, percentile, removeDir, rpc, sendParams, sleep, tempDir } from './support.ts';

export interface AuthorityFaultPhase {
  readonly fault: string;
  /** New triage sent during the fault, and how many completed on the last verified version. */
  readonly tried: number;
  readonly onLastVerified: number;
  readonly p50Ms: number;
  readonly maxMs: number;
  /** What each call through the agent was told (status, state or code, the first words). */
  readonly showBack: string;
  readonly answer: string;
  readonly rulesInForce: string;
  readonly lessonAtAgent: string;
  readonly readyz: number;
  /** Calls through the agent answered with an internal error (target 0). */
  readonly internalErrors: number;
  /** From the authority answering again to show-back answering through the agent, ms (null: never within 30 s). */
  readonly recoveredMs: number | null;
  /** From a lesson taught after recovery to a triage at the agent reading under it, ms. */
  readonly lessonTakesEffectMs: number | null;
}

export interface AuthorityFaultsOptions {
  /** New triage sent during each fault. */
  readonly triagePerFault: number;
  /** AUTHORITY_TIMEOUT_MS of the agent. */
  readonly authorityTimeoutMs: number;
}

const mail = (from: string, subject = 'Pre-alert AF'): string =>
  `From: ${from}\r\nSubject: ${subject} ${randomUUID().slice(0, 6)}\r\nMessage-ID: <af-${randomUUID()}@origin.example>\r\n\r\nShipment.\r\n`;

const short = (s: unknown): string => String(s).replace(/\s+/g, ' ').slice(0, 110);

interface Procs {
  authority: ListeningChild;
  agent: ListeningChild;
  authorityToken: string;
  agentToken: string;
  authorityDir: string;
  port: string;
}

async function startAuthority(dir: string, port: string): Promise<ListeningChild> {
  return spawnListening('src/main.ts', {
    HOST: '127.0.0.1',
    PORT: port,
    DATA_DIR: dir,
    ROLE: 'authority',
    LOG_LEVEL: 'warn',
  });
}

/** The version a task was pinned to (its metadata; parked or not). */
const taskPin = (task: any): string | undefined => task?.metadata?.[EXTENSION_URI]?.pin?.versionId;

/** The version a reading was decided under (its artifact). */
function pinOf(task: any): string | null {
  const part = task?.artifacts?.[0]?.parts?.find((p: any) => p.data !== undefined);
  return part?.data?.pin?.versionId ?? null;
}

function isInternal(body: any): boolean {
  const text = JSON.stringify(body ?? null);
  return text.includes('-32603') || text.includes('"INTERNAL"');
}

async function lesson(url: string, token: string, from: string, signal?: AbortSignal): Promise<Response> {
  return fetch(`${url}/authority/v1/lessons`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      collection: 'customers',
      entry: 'northgate',
      value: { pattern: from.replace(/\./g, '\\.'), where: 'from' },
      taughtBy: 'dana@warehouse.example',
    }),
    ...(signal === undefined ? {} : { signal }),
  });
}

async function runFault(
  p: Procs,
  fault: 'slow' | 'down',
  options: AuthorityFaultsOptions,
): Promise<AuthorityFaultPhase> {
  const agent = { url: p.agent.url, token: p.agentToken };
  // Before the fault: a reading (the version the agent verified last) and a parked question.
  const before = (
    await rpc(agent, 'SendMessage', sendParams([mailPart(mail('ops@northgatemotors.example'))]))
  ).body?.result?.task;
  const lastVerified = pinOf(before);
  const parked = (
    await rpc(
      agent,
      'SendMessage',
      sendParams([mailPart(mail(`nobody-${randomUUID().slice(0, 6)}@unknown.example`))]),
    )
  ).body?.result?.task;
  let internalErrors = 0;

  if (fault === 'slow') process.kill(p.authority.pid, 'SIGSTOP');
  else await p.authority.stop('SIGKILL');

  const ms: number[] = [];
  let onLastVerified = 0;
  try {
    for (let i = 0; i < options.triagePerFault; i++) {
      const t0 = performance.now();
      const a = await rpc(agent, 'SendMessage', sendParams([mailPart(mail('ops@northgatemotors.example'))]));
      ms.push(performance.now() - t0);
      const task = a.body?.result?.task;
      if (isInternal(a.body)) internalErrors++;
      if (task?.status?.state === 'TASK_STATE_COMPLETED' && pinOf(task) === lastVerified) onLastVerified++;
    }
    const r = await rpc(agent, 'SendMessage', sendParams([{ data: { recheck: { taskId: before?.id } } }]));
    if (isInternal(r.body)) internalErrors++;
    const rt = r.body?.result?.task;
    const showBack = `${r.status} ${String(rt?.status?.state)} ${String(rt?.status?.message?.metadata?.error?.code ?? '')}: ${short(rt?.status?.message?.parts?.[0]?.text)}`;

    const ans = await rpc(agent, 'SendMessage', sendParams([{ data: { entry: 'northgate' } }], parked?.id));
    if (isInternal(ans.body)) internalErrors++;
    const at = ans.body?.result?.task;
    const answer = `${ans.status} ${String(at?.status?.state)}${at?.status?.state === 'TASK_STATE_COMPLETED' ? (pinOf(at) === taskPin(parked) ? ', on its pin' : ', NOT on its pin') : `: ${short(at?.status?.message?.parts?.[0]?.text ?? ans.body?.error?.message)}`}`;

    const rif = await fetch(`${p.agent.url}/authority/v1/rules-in-force?taskId=${String(before?.id)}`, {
      headers: { authorization: `Bearer ${p.agentToken}` },
    });
    const rifBody: any = await rif.json().catch(() => ({}));
    if (isInternal(rifBody)) internalErrors++;
    const rulesInForce = `${rif.status} ${String(rifBody.error?.code ?? 'ok')}${rifBody.error === undefined ? '' : `: ${short(rifBody.error.message)}`}`;

    const la = await lesson(p.agent.url, p.agentToken, 'x@lesson.example');
    const laBody: any = await la.json().catch(() => ({}));
    const lessonAtAgent = `${la.status} ${String(laBody.error?.code)}: ${short(laBody.error?.message)}`;
    const readyz = (await fetch(`${p.agent.url}/readyz`)).status;

    // Recovery: the authority answers again; the agent notices by itself (no restart, no call to it).
    if (fault === 'slow') process.kill(p.authority.pid, 'SIGCONT');
    else p.authority = await startAuthority(p.authorityDir, p.port);
    const back = performance.now();
    let recoveredMs: number | null = null;
    while (performance.now() - back < 30_000) {
      const again = await rpc(
        agent,
        'SendMessage',
        sendParams([{ data: { recheck: { taskId: before?.id } } }]),
      );
      if (again.body?.result?.task?.status?.state === 'TASK_STATE_COMPLETED') {
        recoveredMs = performance.now() - back;
        break;
      }
      await sleep(100);
    }
    const from = `af-${randomUUID().slice(0, 8)}@lesson.example`;
    const taughtAt = performance.now();
    const taught = await lesson(p.authority.url, p.authorityToken, from);
    await taught.body?.cancel();
    let lessonTakesEffectMs: number | null = null;
    while (taught.ok && performance.now() - taughtAt < 30_000) {
      const t = (await rpc(agent, 'SendMessage', sendParams([mailPart(mail(from, 'Invoice'))]))).body?.result
        ?.task;
      const reading = t?.artifacts?.[0]?.parts?.find((x: any) => x.data !== undefined)?.data;
      if (reading?.customer?.winner === 'northgate') {
        lessonTakesEffectMs = performance.now() - taughtAt;
        break;
      }
      await sleep(100);
    }
    const sorted = [...ms].sort((a, b) => a - b);
    return {
      fault: fault === 'slow' ? 'slow (SIGSTOP)' : 'down (SIGKILL)',
      tried: options.triagePerFault,
      onLastVerified,
      p50Ms: percentile(sorted, 50),
      maxMs: sorted.at(-1) ?? NaN,
      showBack,
      answer,
      rulesInForce,
      lessonAtAgent,
      readyz,
      internalErrors,
      recoveredMs,
      lessonTakesEffectMs,
    };
  } finally {
    if (fault === 'slow' && !p.authority.exited()) process.kill(p.authority.pid, 'SIGCONT');
  }
}

export async function runAuthorityFaults(options: AuthorityFaultsOptions): Promise<AuthorityFaultPhase[]> {
  const authorityDir = tempDir('authority');
  const agentDir = tempDir('agent');
  let procs: Procs | null = null;
  try {
    const authority = await startAuthority(authorityDir, '0');
    const authorityToken = readFileSync(join(authorityDir, DEMO_TOKEN_FILE), 'utf8').trim();
    const agent = await spawnListening('src/main.ts', {
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: agentDir,
      AUTHORITY_URL: authority.url,
      AUTHORITY_TOKEN: authorityToken,
      AUTHORITY_TIMEOUT_MS: String(options.authorityTimeoutMs),
      LOG_LEVEL: 'error',
    });
    procs = {
      authority,
      agent,
      authorityToken,
      agentToken: readFileSync(join(agentDir, DEMO_TOKEN_FILE), 'utf8').trim(),
      authorityDir,
      port: new URL(authority.url).port,
    };
    const phases: AuthorityFaultPhase[] = [];
    phases.push(await runFault(procs, 'slow', options));
    phases.push(await runFault(procs, 'down', options));
    return phases;
  } finally {
    if (procs !== null) {
      if (!procs.authority.exited()) process.kill(procs.authority.pid, 'SIGCONT');
      await Promise.all([procs.agent.stop('SIGKILL'), procs.authority.stop('SIGKILL')]);
    }
    removeDir(authorityDir);
    removeDir(agentDir);
  }
}

/** Held: every triage answered on the last verified version, no internal error, recovered by itself. */
export function authorityFaultsHeld(phases: readonly AuthorityFaultPhase[]): boolean {
  return phases.every(
    (p) =>
      p.onLastVerified === p.tried &&
      p.internalErrors === 0 &&
      p.recoveredMs !== null &&
      p.lessonTakesEffectMs !== null,
  );
}

export function printAuthorityFaults(phases: readonly AuthorityFaultPhase[], timeoutMs: number): void {
  for (const p of phases) {
    const w = (s: string): boolean => process.stdout.write(`authority ${p.fault}: ${s}\n`);
    w(
      `triage ${p.onLastVerified}/${p.tried} completed on the last verified version (p50 ${p.p50Ms.toFixed(0)} ms, max ${p.maxMs.toFixed(0)} ms; AUTHORITY_TIMEOUT_MS ${timeoutMs})`,
    );
    w(`show-back ${p.showBack}`);
    w(`answer to a parked question ${p.answer}`);
    w(`rules-in-force ${p.rulesInForce}`);
    w(`lesson posted to the agent ${p.lessonAtAgent}`);
    w(`/readyz ${p.readyz}; internal errors ${p.internalErrors}`);
    w(
      `recovered by itself: show-back answers ${p.recoveredMs === null ? 'NOT within 30 s' : `${p.recoveredMs.toFixed(0)} ms`} after the authority is back; a lesson taught then reads at the agent after ${p.lessonTakesEffectMs === null ? 'NOT within 30 s' : `${p.lessonTakesEffectMs.toFixed(0)} ms`}`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const options = { triagePerFault: 5, authorityTimeoutMs: 1000 };
  const phases = await runAuthorityFaults(options);
  printAuthorityFaults(phases, options.authorityTimeoutMs);
  process.stdout.write(`authority faults held: ${authorityFaultsHeld(phases) ? 'yes' : 'NO'}\n`);
}
