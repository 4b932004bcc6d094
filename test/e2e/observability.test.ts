// Invariant (issue 18): a running server writes one JSON log line per request and per triaged
// message, with request, task, context and tenant ids, outcome and duration, and never a token or an
// address in clear; its Prometheus metrics count what happened (reads by path, questions, lessons,
// activations, compiles, matches) behind METRICS_TOKEN or on METRICS_PORT, with a bounded tenant label.
/* eslint-disable @typescript-eslint/no-unsafe-return -- wire JSON is read loosely; the assertions check its shape */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.ts';
import { compose, type Composition } from '../../src/main.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { authorityCall, type Wire } from '../support/calls.ts';
import { send, sdkClient } from '../support/sdk-client.ts';
import { tempDataDir } from './host.ts';

const SEEDED_ADDRESS = 'billing@origin.example';
const METRICS_TOKEN = `metrics-${randomUUID()}`;

interface Running {
  readonly url: string;
  readonly token: string;
  readonly lines: string[];
  readonly metricsPort: number | null;
  close(): Promise<void>;
}

async function start(env: Record<string, string>): Promise<Running> {
  const data = tempDataDir();
  const lines: string[] = [];
  const config = loadConfig({ HOST: '127.0.0.1', PORT: '0', DATA_DIR: data.dir, ...env });
  const logger = createLogger({
    level: config.logLevel,
    destination: { write: (s: string) => void lines.push(s) },
  });
  const composition: Composition = await compose(config, { announce: () => {}, logger });
  const listening = await composition.server.listen(0, '127.0.0.1');
  return {
    url: listening.localUrl,
    token: composition.demoToken!,
    lines,
    metricsPort: listening.metricsPort,
    async close() {
      await composition.close();
      data.remove();
    },
  };
}

const mail = (subject: string) => ({
  parts: [
    {
      data: {
        from: SEEDED_ADDRESS,
        to: ['imports@warehouse.example'],
        subject,
        messageId: `${randomUUID()}@origin.example`,
        body: 'Manifest attached.',
      },
    },
  ],
});

/** One sample's value from a Prometheus exposition, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const m = /^([a-zA-Z0-9_:]+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (m === null || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(m[3]);
  }
  return undefined;
}

describe('a server run like a service: its log and its metrics', () => {
  let s: Running;
  let metrics = '';
  let questionTask = '';
  beforeAll(async () => {
    s = await start({ METRICS_TOKEN, LOG_LEVEL: 'info' });
    const { client, opts } = await sdkClient(s.url, s.token);
    const asked = await send(client, opts, mail('Pre-alert PA-1'));
    questionTask = asked.id;
    const taught = await authorityCall(s.url, s.token, 'POST', '/lessons', {
      collection: 'customers',
      entry: 'northgate',
      value: { pattern: 'billing@origin\\.example', where: 'from' },
      taughtBy: 'dana@warehouse.example',
      reason: 'their billing desk',
    });
    expect(taught.status).toBe(200);
    const refused = await authorityCall(s.url, s.token, 'POST', '/lessons', {
      collection: 'customers',
      entry: 'northgat',
      value: { pattern: 'x@y\\.example', where: 'from' },
      taughtBy: 'dana@warehouse.example',
    });
    expect(refused.status).toBe(422);
    await send(client, opts, mail('Pre-alert PA-2'));
    // An address where the request line does log something: the path.
    expect((await authorityCall(s.url, s.token, 'GET', `/versions/${SEEDED_ADDRESS}`)).status).toBe(404);
    const res = await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    metrics = await res.text();
  }, 60_000);
  afterAll(() => s.close());

  it('puts a triaged message on the line of the request that carried it: its ids, outcome and duration (issue 41: one line per request)', () => {
    const lines = s.lines.map((l): Wire => JSON.parse(l));
    expect(lines.filter((l) => l.msg === 'message triaged')).toEqual([]);
    const sends = lines.filter((l) => l.req?.path === '/a2a/jsonrpc');
    const triaged = sends.filter((l) => l.triage !== undefined).map((l) => l.triage);
    expect(triaged).toHaveLength(2);
    const [first, second] = triaged;
    expect(first).toMatchObject({
      tenant: 'demo',
      path: 'a2a',
      taskId: questionTask,
      outcome: 'input-required',
    });
    expect(first.questions).toContain('customers');
    expect(typeof first.contextId).toBe('string');
    expect(first.durationMs).toBeGreaterThan(0);
    expect(second).toMatchObject({ outcome: 'completed', questions: [] });
    expect(sends.find((l) => l.triage !== undefined)).toMatchObject({
      level: 'info',
      res: { statusCode: 200 },
    });
  });

  it('writes one JSON line per request with its id, tenant, status, outcome and duration', () => {
    const requests = s.lines.map((l): Wire => JSON.parse(l)).filter((l) => l.req !== undefined);
    const lesson = requests.find((l) => l.req.path === '/authority/v1/lessons' && l.res.statusCode === 200);
    expect(lesson).toMatchObject({ tenant: 'demo', outcome: 'ok', level: 'info' });
    expect(typeof lesson.req.id).toBe('string');
    expect(typeof lesson.responseTime).toBe('number');
    const refused = requests.find((l) => l.req.path === '/authority/v1/lessons' && l.res.statusCode === 422);
    expect(refused).toMatchObject({ outcome: 'refused', level: 'warn' });
    expect(new Set(requests.map((l) => l.req.id)).size).toBe(requests.length);
  });

  it('never logs a token, the metrics token, an address or a lesson value in clear', () => {
    const all = s.lines.join('');
    expect(s.lines.length).toBeGreaterThan(5);
    expect(all).not.toContain(s.token);
    expect(all).not.toContain(METRICS_TOKEN);
    expect(all).not.toContain(SEEDED_ADDRESS);
    expect(all).toContain('/authority/v1/versions/[address]');
    expect(all).not.toContain('dana@warehouse.example');
    expect(all).not.toContain('billing@origin\\\\.example');
    expect(all).not.toContain('Manifest attached');
  });

  it('counts messages read by path, questions, lessons by outcome and activations', () => {
    expect(sample(metrics, 'triage_messages_read_total', { tenant: 'demo', path: 'a2a' })).toBe(2);
    expect(sample(metrics, 'triage_questions_total', { tenant: 'demo', collection: 'customers' })).toBe(1);
    expect(
      sample(metrics, 'triage_questions_per_hundred_messages', { tenant: 'demo' }),
    ).toBeGreaterThanOrEqual(50);
    expect(sample(metrics, 'triage_lessons_total', { tenant: 'demo', outcome: 'learned' })).toBe(1);
    expect(sample(metrics, 'triage_lessons_total', { tenant: 'demo', outcome: 'refused' })).toBe(1);
    expect(sample(metrics, 'triage_activations_total', { tenant: 'demo', action: 'teach' })).toBe(1);
    expect(sample(metrics, 'a2a_task_states_total', { state: 'TASK_STATE_INPUT_REQUIRED' })).toBe(1);
    expect(sample(metrics, 'a2a_task_states_total', { state: 'TASK_STATE_COMPLETED' })).toBe(1);
  });

  it('times the matcher compile and every match, and gives the compiled size', () => {
    expect(sample(metrics, 'triage_matcher_compile_seconds_count')).toBeGreaterThanOrEqual(2);
    expect(sample(metrics, 'triage_matcher_marks')).toBeGreaterThan(0);
    expect(sample(metrics, 'triage_match_duration_seconds_count')).toBeGreaterThanOrEqual(2);
    expect(
      sample(metrics, 'http_request_duration_seconds_count', { route: 'authority', status: '2xx' }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('opens /metrics only to METRICS_TOKEN: not to a tenant admin token, not to no token', async () => {
    for (const headers of [{}, { authorization: `Bearer ${s.token}` }] as Record<string, string>[]) {
      const res = await fetch(`${s.url}/metrics`, { headers });
      expect(res.status).toBe(401);
      expect(((await res.json()) as Wire).error.message).toContain('METRICS_TOKEN');
    }
  });
});

describe('metrics on a port of their own, and off by default', () => {
  it('serves /metrics on METRICS_PORT without a token, and says how to turn it on otherwise', async () => {
    const on = await start({ METRICS_PORT: '0' });
    try {
      expect(on.metricsPort).not.toBeNull();
      const res = await fetch(`http://127.0.0.1:${on.metricsPort}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('# TYPE triage_messages_read_total counter');
      const main = await fetch(`${on.url}/metrics`);
      expect(main.status).toBe(404);
      expect(((await main.json()) as Wire).error.message).toMatch(/METRICS_TOKEN.*METRICS_PORT/);
    } finally {
      await on.close();
    }
  });

  it("tells a message a webhook brought on that request's one line, not on a line of its own", async () => {
    const token = `inbound-${randomUUID()}`;
    const hooked = await start({
      LOG_LEVEL: 'info',
      INBOUND_WEBHOOKS: JSON.stringify([{ tenant: 'demo', tokenEnv: 'OBS_INBOUND_TOKEN' }]),
      OBS_INBOUND_TOKEN: token,
    });
    try {
      const eml = [
        `From: ${SEEDED_ADDRESS}`,
        'To: imports@warehouse.example',
        'Subject: Pre-alert PA-9',
        `Message-ID: <${randomUUID()}@origin.example>`,
        '',
        'Manifest attached.',
        '',
      ].join('\r\n');
      const posted = await fetch(`${hooked.url}/inbound/v1/rfc822/${token}`, {
        method: 'POST',
        headers: { 'content-type': 'message/rfc822' },
        body: eml,
      });
      expect(posted.status).toBe(200);
      const { taskId } = (await posted.json()) as { taskId: string };
      const lines = hooked.lines.map((l): Wire => JSON.parse(l));
      expect(lines.filter((l) => l.msg === 'message taken in')).toEqual([]);
      const request = lines.find(
        (l) => typeof l.req?.path === 'string' && l.req.path.startsWith('/inbound/v1/'),
      );
      expect(request?.intake).toMatchObject({
        tenant: 'demo',
        taskId,
        source: { kind: 'webhook', name: 'rfc822' },
      });
      expect(JSON.stringify(request)).not.toContain(token);
    } finally {
      await hooked.close();
    }
  });

  it('honours LOG_LEVEL: at warn, no info line is written', async () => {
    const quiet = await start({ LOG_LEVEL: 'warn' });
    try {
      await authorityCall(quiet.url, quiet.token, 'GET', '/whoami');
      await authorityCall(quiet.url, 'not-a-token', 'GET', '/whoami');
      const levels = quiet.lines.map((l) => JSON.parse(l).level as string);
      expect(levels).not.toContain('info');
      expect(levels).toContain('warn'); // the 401
    } finally {
      await quiet.close();
    }
  });
});

describe('PUBLIC_URL with HOST on every interface (decided: start, and warn loudly)', () => {
  it('warns at start, naming PUBLIC_URL, when HOST=0.0.0.0 and PUBLIC_URL is unset', async () => {
    const s = await start({ HOST: '0.0.0.0' });
    try {
      const warned = s.lines.map((l): Wire => JSON.parse(l)).filter((l) => l.setting === 'PUBLIC_URL');
      expect(warned).toHaveLength(1);
      expect(warned[0]).toMatchObject({ level: 'warn' });
      expect(warned[0].msg).toMatch(/Set PUBLIC_URL/);
    } finally {
      await s.close();
    }
  });

  it('advertises PUBLIC_URL on the card, without a warning, when it is set', async () => {
    const s = await start({ HOST: '0.0.0.0', PUBLIC_URL: 'https://triage.example.com' });
    try {
      expect(s.lines.some((l) => l.includes('PUBLIC_URL'))).toBe(false);
      const card = (await (await fetch(`${s.url}/.well-known/agent-card.json`)).json()) as Wire;
      expect(card.supportedInterfaces[0].url).toBe('https://triage.example.com/a2a/jsonrpc');
    } finally {
      await s.close();
    }
  });
});
