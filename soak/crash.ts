/**
 * The crash soak (issue 16): a steady mixed stream — triage by A2A and by webhook, answers, lessons,
 * rechecks, history reads, rollbacks — against a server in its own process that is SIGKILLed at
 * random moments and restarted on the same data directory, `restarts` times. Calls cut by a kill
 * are not counted as acknowledged; webhook posts are retried until acknowledged, as a provider does.
 * Then a verifier checks, on the last server: no acknowledged task lost, none left stuck (submitted
 * or working), no version torn (every version in history loads), no lesson recorded twice, no
 * webhook message triaged twice (one task in its ingest context), and every input-required task
 * answerable on the version it was pinned to.
 *
 * Loopback only; bounded by `restarts` and `maxSeconds`; the data directory is removed at the end.
 * IMAP is not driven here (it needs the test Dovecot; test/e2e/mail-pipelines.test.ts covers it).
 */
/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-return -- wire JSON, read loosely; the verifier checks its shape */
import { randomUUID } from 'node:crypto';
import { EXTENSION_URI } from '../src/domain/extension.ts';
import { tenantId } from '../src/domain/tenant.ts';
import { ingestContextId } from '../src/ingest/intake.ts';
import {
  mailPart,
  numberArg,
  removeDir,
  rpc,
  sendParams,
  sleep,
  startServer,
  tempDir,
  type SoakServer,
} from './support.ts';

const INBOUND = 'tok-soak-inbound-0123456789';
/** A short claim lease, so a message whose triage a kill interrupted is retaken within the soak. */
const LEASE_MS = 3_000;
const ENV = {
  INBOUND_WEBHOOKS: JSON.stringify([{ tenant: 'demo', tokenEnv: 'SOAK_INBOUND' }]),
  SOAK_INBOUND: INBOUND,
  INGEST_CLAIM_LEASE_MS: String(LEASE_MS),
};
const TEACHER = 'dana@warehouse.example';

export interface CrashFigures {
  readonly restarts: number;
  readonly seconds: number;
  readonly calls: Readonly<Record<string, number>>;
  readonly cut: number;
  readonly acknowledgedTasks: number;
  readonly webhookMessages: number;
  readonly lessonsLearned: number;
  readonly lost: number;
  readonly stuck: number;
  readonly torn: number;
  readonly lessonsTwice: number;
  readonly triagedTwice: number;
  readonly answeredOnPin: number;
  readonly notAnswerable: number;
  readonly problems: readonly string[];
}

let seq = 0;
function mail(from: string): string {
  seq += 1;
  return (
    `From: ${from}\r\nTo: imports@warehouse.example\r\nSubject: Pre-alert SOAK-${seq}\r\n` +
    `Message-ID: <soak-${seq}-${randomUUID()}@origin.example>\r\n\r\nShipment ${seq} details below.\r\n`
  );
}
const messageIdOf = (m: string): string => /Message-ID: <([^>]+)>/.exec(m)![1]!;

async function authority(
  s: SoakServer,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${s.url}/authority/v1${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${s.token}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? {} : JSON.parse(text) };
}

const stateOf = (task: any): string => String(task?.status?.state ?? '');
const pinOf = (task: any): string | undefined => task?.metadata?.[EXTENSION_URI]?.pin?.versionId;
const entriesOf = (task: any): string[] =>
  task?.status?.message?.metadata?.[EXTENSION_URI]?.teach?.entries ?? [];

export async function runCrash(options: { restarts: number; maxSeconds: number }): Promise<CrashFigures> {
  const dir = tempDir('crash');
  let server = await startServer(dir, ENV);
  const token = server.token;
  const started = Date.now();
  const calls: Record<string, number> = {};
  let cut = 0;
  const tasks = new Map<string, string>(); // acknowledged task id -> state when acknowledged
  const parked: string[] = []; // acknowledged input-required tasks
  const webhook = new Map<string, { text: string; taskId: string | null; last?: string }>();
  const lessons: string[] = [];
  const problems: string[] = [];
  let restarts = 0;
  let killing = false;

  const op = async (): Promise<void> => {
    const r = Math.random();
    const s = server;
    if (r < 0.3) {
      calls.a2a = (calls.a2a ?? 0) + 1;
      const from = Math.random() < 0.5 ? `billing@unknown-${seq}.example` : 'ops@northgatemotors.example';
      const a = await rpc(s, 'SendMessage', sendParams([mailPart(mail(from))]));
      const t = a.body?.result?.task;
      if (t?.id !== undefined) {
        tasks.set(t.id, stateOf(t));
        if (stateOf(t) === 'TASK_STATE_INPUT_REQUIRED') parked.push(t.id);
      } else if (a.status !== 503) problems.push(`a2a: ${a.status} ${JSON.stringify(a.body).slice(0, 200)}`);
    } else if (r < 0.5) {
      calls.webhook = (calls.webhook ?? 0) + 1;
      const text = mail(`relay${seq}@unknown-${seq}.example`);
      webhook.set(messageIdOf(text), { text, taskId: null });
      await postWebhook(s, messageIdOf(text));
    } else if (r < 0.65 && parked.length > 0) {
      calls.answer = (calls.answer ?? 0) + 1;
      const taskId = parked.splice(Math.floor(Math.random() * parked.length), 1)[0]!;
      const got = await rpc(s, 'GetTask', { id: taskId });
      const entry = entriesOf(got.body?.result)[0] ?? 'northgate';
      const a = await rpc(s, 'SendMessage', sendParams([{ data: { entry } }], taskId));
      const t = a.body?.result?.task;
      if (t?.id !== undefined) tasks.set(t.id, stateOf(t));
      else parked.push(taskId); // cut or refused: it stays to be answered by the verifier
    } else if (r < 0.75) {
      calls.lesson = (calls.lesson ?? 0) + 1;
      const pattern = `soak-${randomUUID().slice(0, 8)}@lesson\\.example`;
      const a = await authority(s, 'POST', '/lessons', {
        collection: 'customers',
        entry: 'northgate',
        value: { pattern, where: 'from' },
        taughtBy: TEACHER,
      });
      if (a.status === 200 && a.body.learned === true) lessons.push(pattern);
    } else if (r < 0.85 && tasks.size > 0) {
      calls.recheck = (calls.recheck ?? 0) + 1;
      const ids = [...tasks.keys()];
      await rpc(
        s,
        'SendMessage',
        sendParams([{ data: { recheck: { taskId: ids[Math.floor(Math.random() * ids.length)] } } }]),
      );
    } else if (r < 0.95) {
      calls.history = (calls.history ?? 0) + 1;
      await authority(s, 'GET', '/history?limit=20');
    } else {
      calls.rollback = (calls.rollback ?? 0) + 1;
      const head = await authority(s, 'GET', '/head');
      const v = Number(head.body.definitionVersion);
      if (v > 2)
        await authority(s, 'POST', '/rollback', {
          to: v - 1,
          taughtBy: TEACHER,
          reason: 'soak: rollback under load',
        });
    }
  };

  const postWebhook = async (s: SoakServer, id: string): Promise<void> => {
    const w = webhook.get(id)!;
    const res = await fetch(`${s.url}/inbound/v1/rfc822/${INBOUND}`, {
      method: 'POST',
      headers: { 'content-type': 'message/rfc822' },
      body: w.text,
    });
    const body: any = await res.json();
    w.last = `${res.status} ${JSON.stringify(body).slice(0, 160)}`;
    if (res.status === 200) {
      w.taskId = body.taskId;
      tasks.set(
        body.taskId,
        body.state === 'input-required' ? 'TASK_STATE_INPUT_REQUIRED' : String(body.state),
      );
    }
  };

  // the stream: two callers at once, until the last restart
  const caller = async (): Promise<void> => {
    while (restarts < options.restarts && Date.now() - started < options.maxSeconds * 1000) {
      if (killing) {
        await sleep(50);
        continue;
      }
      try {
        await op();
      } catch {
        cut++; // the server was killed under this call
      }
    }
  };
  const killer = async (): Promise<void> => {
    while (restarts < options.restarts && Date.now() - started < options.maxSeconds * 1000) {
      await sleep(800 + Math.random() * 2_500);
      killing = true;
      await server.child.stop('SIGKILL');
      server = { ...(await startServer(dir, ENV)), token };
      restarts++;
      killing = false;
    }
  };
  // a restart reads the token from the first start: the file stays, so startServer finds it again
  await Promise.all([caller(), caller(), killer()]);

  // webhooks: retried until acknowledged, as a provider would
  for (const [id, w] of webhook) {
    for (let i = 0; i < 20 && w.taskId === null; i++) {
      await postWebhook(server, id).catch(() => undefined);
      if (w.taskId === null) await sleep(LEASE_MS / 4);
    }
    if (w.taskId === null) problems.push(`webhook ${id} never acknowledged: ${w.last}`);
  }

  // verify
  let lost = 0;
  let stuck = 0;
  const parkedNow: string[] = [];
  for (const id of tasks.keys()) {
    const got = await rpc(server, 'GetTask', { id });
    const t = got.body?.result;
    if (t?.id === undefined) {
      lost++;
      problems.push(`task ${id}: ${JSON.stringify(got.body).slice(0, 160)}`);
      continue;
    }
    const st = stateOf(t);
    if (st === 'TASK_STATE_SUBMITTED' || st === 'TASK_STATE_WORKING') {
      stuck++;
      problems.push(`task ${id} (acknowledged as ${tasks.get(id)}) left ${st}`);
    }
    if (st === 'TASK_STATE_INPUT_REQUIRED') parkedNow.push(id);
  }
  // tasks no caller was told about (cut mid-call) must not be stuck either
  let pageToken = '';
  do {
    const page = await rpc(server, 'ListTasks', { pageSize: 100, pageToken, historyLength: 0 });
    for (const t of page.body?.result?.tasks ?? []) {
      const st = stateOf(t);
      if ((st === 'TASK_STATE_SUBMITTED' || st === 'TASK_STATE_WORKING') && !tasks.has(t.id)) {
        stuck++;
        problems.push(`task ${t.id} (never acknowledged) left ${st}`);
      }
    }
    pageToken = page.body?.result?.nextPageToken ?? '';
  } while (pageToken !== '');

  const history = await authority(server, 'GET', '/history?limit=1000');
  let torn = 0;
  const activations: any[] = history.body.history ?? [];
  for (const versionId of new Set(activations.map((a) => a.versionId).filter((v) => typeof v === 'string'))) {
    const v = await authority(server, 'GET', `/versions/${encodeURIComponent(versionId)}`);
    if (v.status !== 200) {
      torn++;
      problems.push(`version ${versionId}: ${v.status}`);
    }
  }
  if ((await authority(server, 'GET', '/definition')).status !== 200) torn++;
  let lessonsTwice = 0;
  for (const pattern of lessons) {
    const shown = pattern.replace(/\\/g, '');
    const n = activations.filter(
      (a) => a.action === 'teach' && JSON.stringify(a).replace(/\\/g, '').includes(shown),
    ).length;
    if (n > 1) lessonsTwice++;
  }
  let triagedTwice = 0;
  for (const id of webhook.keys()) {
    const page = await rpc(server, 'ListTasks', {
      contextId: ingestContextId(tenantId('demo'), `mid:${id}`),
      pageSize: 10,
      historyLength: 0,
    });
    // a task a kill interrupted was failed at the next start (store/interrupted-tasks.ts): not a triage
    const n = (page.body?.result?.tasks ?? []).filter((t: any) => stateOf(t) !== 'TASK_STATE_FAILED').length;
    if (n > 1) {
      triagedTwice++;
      problems.push(`webhook message ${id}: ${n} tasks`);
    }
    if (n === 0) {
      lost++;
      problems.push(`webhook message ${id}: no reading (only failed tasks)`);
    }
  }
  let answeredOnPin = 0;
  let notAnswerable = 0;
  for (const id of parkedNow) {
    const got = (await rpc(server, 'GetTask', { id })).body?.result;
    const entry = entriesOf(got)[0] ?? 'northgate';
    const a = await rpc(server, 'SendMessage', sendParams([{ data: { entry } }], id));
    const t = a.body?.result?.task;
    const reading = t?.artifacts?.[0]?.parts?.find((p: any) => p.data !== undefined)?.data;
    const st = stateOf(t);
    if (
      (st === 'TASK_STATE_COMPLETED' || st === 'TASK_STATE_INPUT_REQUIRED') &&
      (st !== 'TASK_STATE_COMPLETED' || reading?.pin?.versionId === pinOf(got))
    )
      answeredOnPin++;
    else {
      notAnswerable++;
      // Says what came back: the state and both pins, or the error (the whole body is too long to read).
      problems.push(
        `answer to ${id}: ${st ?? JSON.stringify(a.body?.error ?? a.body).slice(0, 300)}, ` +
          `reading on ${String(reading?.pin?.versionId ?? '-')}, parked on ${String(pinOf(got) ?? '-')}` +
          `${st === 'TASK_STATE_FAILED' ? `: ${JSON.stringify(t?.status?.message?.parts ?? []).slice(0, 400)}` : ''}`,
      );
    }
  }
  await server.child.stop();
  if (process.env.SOAK_KEEP === undefined) removeDir(dir);
  else problems.push(`data kept in ${dir}`);
  return {
    restarts,
    seconds: (Date.now() - started) / 1000,
    calls,
    cut,
    acknowledgedTasks: tasks.size,
    webhookMessages: webhook.size,
    lessonsLearned: lessons.length,
    lost,
    stuck,
    torn,
    lessonsTwice,
    triagedTwice,
    answeredOnPin,
    notAnswerable,
    problems,
  };
}

export function printCrash(f: CrashFigures): void {
  const ok = f.lost + f.stuck + f.torn + f.lessonsTwice + f.triagedTwice + f.notAnswerable === 0;
  process.stdout.write(
    `crash: ${f.restarts} SIGKILL restarts in ${f.seconds.toFixed(0)} s; calls ${JSON.stringify(f.calls)}, ${f.cut} cut by a kill\n` +
      `crash: ${f.acknowledgedTasks} acknowledged tasks (${f.webhookMessages} webhook messages), ${f.lessonsLearned} lessons learned\n` +
      `crash: lost ${f.lost}, stuck ${f.stuck}, torn versions ${f.torn}, lessons recorded twice ${f.lessonsTwice}, ` +
      `messages triaged twice ${f.triagedTwice}, input-required answered on their pin ${f.answeredOnPin}, not answerable ${f.notAnswerable}: ${ok ? 'nothing lost' : 'PROBLEMS'}\n` +
      f.problems
        .slice(0, 10)
        .map((p) => `crash:   ${p}\n`)
        .join(''),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = numberArg;
  printCrash(await runCrash({ restarts: arg('restarts', 3), maxSeconds: arg('max-seconds', 120) }));
}
