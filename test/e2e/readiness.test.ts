// Invariant (issue 18): /healthz is liveness only; /readyz names each part (database, the active
// version's matcher, each mailbox, the remote authority) and answers 503 while any is not ready,
// saying why: a refused IMAP port, an authority that stopped answering.
/* eslint-disable @typescript-eslint/no-unsafe-return -- wire JSON is read loosely; the assertions check its shape */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDovecot, type Dovecot } from '../support/dovecot.ts';
import { type Wire } from '../support/calls.ts';
import { mailPipelineEnv, startInProcess, type Host } from './host.ts';

/** A port nothing listens on: bound, then closed. */
async function refusedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

async function ready(url: string): Promise<{ status: number; body: Wire }> {
  const res = await fetch(`${url}/readyz`);
  return { status: res.status, body: await res.json() };
}

const check = (body: Wire, name: string): Wire => body.checks.find((c: Wire) => c.name === name);

/** Polls /readyz until `until` holds (parts become ready in the background), at most ~10 s. */
async function readyUntil(url: string, until: (r: { status: number; body: Wire }) => boolean) {
  let r = await ready(url);
  for (let i = 0; i < 100 && !until(r); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    r = await ready(url);
  }
  return r;
}

describe('/readyz', () => {
  let dovecot: Dovecot;
  beforeAll(async () => {
    dovecot = await startDovecot();
  });
  afterAll(() => dovecot?.dispose());

  it('is 503 while a mailbox is refused, naming it and why, though /healthz says the process lives', async () => {
    const port = await refusedPort();
    const host = await startInProcess({
      MAILBOXES: JSON.stringify([
        {
          name: 'refused',
          tenant: 'demo',
          host: '127.0.0.1',
          port,
          secure: false,
          user: 'u',
          passwordEnv: 'RZ_PW',
        },
      ]),
      RZ_PW: 'pw',
    });
    try {
      expect((await fetch(`${host.url}/healthz`)).status).toBe(200);
      const r = await readyUntil(host.url, (x) => check(x.body, 'matcher:demo')?.ready === true);
      expect(r.status).toBe(503);
      expect(r.body.status).toBe('not ready');
      expect(check(r.body, 'database')).toMatchObject({ ready: true, detail: 'ok' });
      expect(check(r.body, 'matcher:demo')).toMatchObject({ ready: true });
      const mailbox = check(r.body, 'mailbox:refused');
      expect(mailbox.ready).toBe(false);
      expect(mailbox.detail).toMatch(/not connected/);
      expect(mailbox.detail).toMatch(/ECONNREFUSED|refused/i);
    } finally {
      await host.close();
    }
  });

  it('is 200 once the mailbox is connected and the active version compiled', async () => {
    const host = await startInProcess(
      mailPipelineEnv(dovecot, {
        mailbox: 'ready',
        inboundToken: 'rz-inbound-token-0123456789',
        mailgunSigningKey: 'key-readyz',
      }),
    );
    try {
      const r = await readyUntil(host.url, (x) => x.status === 200);
      expect(r.status).toBe(200);
      expect(r.body.checks.map((c: Wire) => c.name).sort()).toEqual([
        'database',
        'mailbox:ready',
        'matcher:demo',
      ]);
      expect(r.body.checks.every((c: Wire) => c.ready)).toBe(true);
    } finally {
      await host.close();
    }
  });

  it('is 503 naming the authority when AUTHORITY_URL stops answering', async () => {
    const authority: Host = await startInProcess({ ROLE: 'authority' });
    const agent = await startInProcess({ AUTHORITY_URL: authority.url, AUTHORITY_TOKEN: authority.token! });
    try {
      const up = await readyUntil(agent.url, (x) => x.status === 200);
      expect(up.status).toBe(200);
      expect(check(up.body, 'authority')).toMatchObject({ ready: true });
      await authority.close();
      const down = await ready(agent.url);
      expect(down.status).toBe(503);
      expect(check(down.body, 'authority').ready).toBe(false);
      expect(check(down.body, 'authority').detail).toContain(
        `the authority at ${authority.url} could not be reached`,
      );
    } finally {
      await agent.close();
      await authority.close();
    }
  });
});
