// Invariant: every inbound webhook format (Postmark, Mailgun, SendGrid parsed and raw, message/rfc822) yields the same normalised message through one path, is triaged once however often or by however many paths it arrives, and a bad token, signature or payload gets a 4xx in the provider's retry conventions naming what was wrong.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import express from 'express';
import request from 'supertest';
import { sql, type Kysely } from 'kysely';
import { openDatabase } from '../../src/store/database.ts';
import { SqliteIngestStore } from '../../src/store/sqlite-ingest-store.ts';
import { createIntake } from '../../src/ingest/intake.ts';
import { createInboundRouter, type InboundEndpoint } from '../../src/ingest/webhooks/router.ts';
import { parseMail } from '../../src/ingest/mail/parse.ts';
import type { MailSubmitter } from '../../src/ingest/ports.ts';
import type { MailLimits } from '../../src/domain/mail/index.ts';
import { tenantId } from '../../src/domain/tenant.ts';
import { recordingLog, recordingSubmitter } from '../support/ingest.ts';

const fixture = (name: string): string =>
  readFileSync(new URL(`../../fixtures/webhooks/${name}`, import.meta.url), 'utf8');
const json = (name: string): Record<string, unknown> => JSON.parse(fixture(name)) as Record<string, unknown>;
interface FormFixture {
  _signingKey?: string;
  fields: Record<string, string>;
  files: { field: string; filename: string; contentType: string; content: string }[];
}
const form = (name: string): FormFixture => JSON.parse(fixture(name)) as FormFixture;

const ACME = tenantId('acme');
const TOKEN = 'tok-acme-3b9f2c71d4e8';
const MG = form('mailgun-route.json');
const SIGNING_KEY = MG._signingKey!;
const MG_NOW_MS = Number(MG.fields.timestamp) * 1000 + 5_000;
const MESSAGE_ID = 'CAF=prealert-0001@mail.hanse-textil.example';

let db: Kysely<unknown>;
let submitter: ReturnType<typeof recordingSubmitter>;
let log: ReturnType<typeof recordingLog>;

beforeEach(async () => {
  db = await openDatabase({ file: ':memory:' });
  submitter = recordingSubmitter();
  log = recordingLog();
});
afterEach(async () => {
  await db.destroy();
});

function app(
  options: {
    endpoints?: InboundEndpoint[];
    limits?: Partial<MailLimits>;
    submitter?: MailSubmitter;
    nowMs?: number;
  } = {},
): express.Express {
  const store = new SqliteIngestStore(db);
  const a = express();
  a.use(
    '/inbound/v1',
    createInboundRouter({
      endpoints: options.endpoints ?? [{ tenant: ACME, token: TOKEN, mailgunSigningKey: SIGNING_KEY }],
      intake: createIntake({ submitter: options.submitter ?? submitter, store, log, limits: options.limits }),
      log,
      maxMessageBytes: options.limits?.maxMessageBytes ?? 25 * 1024 * 1024,
      // As compose-mail.ts wires it: spent Mailgun tokens are kept in the ingest store (issue 12.5).
      spentTokens: store,
      nowMs: () => options.nowMs ?? MG_NOW_MS,
    }),
  );
  return a;
}

/**
 * Runs `body` with `db` on a database file instead of `:memory:`; `restart` closes and reopens it,
 * as a server restart would (the next app() is a new router, with empty memory).
 */
async function onDatabaseFile(body: (restart: () => Promise<void>) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'webhooks-file-'));
  const file = join(dir, 'db.sqlite');
  try {
    await db.destroy();
    db = await openDatabase({ file });
    await body(async () => {
      await db.destroy();
      db = await openDatabase({ file });
    });
  } finally {
    await db.destroy();
    db = await openDatabase({ file: ':memory:' });
    rmSync(dir, { recursive: true, force: true });
  }
}

function postForm(a: express.Express, path: string, f: FormFixture, multipart = true): request.Test {
  const req = request(a).post(path);
  if (!multipart) return req.type('form').send(new URLSearchParams(f.fields).toString());
  for (const [k, v] of Object.entries(f.fields)) void req.field(k, v);
  for (const file of f.files) {
    void req.attach(file.field, Buffer.from(file.content, 'utf8'), {
      filename: file.filename,
      contentType: file.contentType,
    });
  }
  return req;
}

/** What every path must agree on, read back through the real parseMail. */
async function normalised(raw: Buffer): Promise<unknown> {
  const m = await parseMail(raw);
  return {
    messageId: m.messageId,
    from: m.from,
    subject: m.subject,
    mentionsHawb: m.body.includes('HAWB 176-12345675 (4 pcs, 312.5 kg) FRA-ORD'),
    attachments: m.attachments.map((x) => ({ filename: x.filename, table: x.table })),
  };
}

describe('inbound webhooks', () => {
  it('maps Postmark (rebuilt and RawEmail), Mailgun (parsed and body-mime), SendGrid (parsed and raw) and message/rfc822 to the same message', async () => {
    const expected = await normalised(Buffer.from(fixture('prealert.eml')));
    expect(expected).toMatchObject({ messageId: MESSAGE_ID, mentionsHawb: true });
    const sends: [string, (a: express.Express) => request.Test][] = [
      [
        'postmark',
        (a) => request(a).post(`/inbound/v1/postmark/${TOKEN}`).send(json('postmark-inbound.json')),
      ],
      [
        'postmark raw',
        (a) => request(a).post(`/inbound/v1/postmark/${TOKEN}`).send(json('postmark-inbound-raw.json')),
      ],
      ['mailgun multipart', (a) => postForm(a, `/inbound/v1/mailgun/${TOKEN}`, MG)],
      [
        'mailgun mime',
        (a) => postForm(a, `/inbound/v1/mailgun/${TOKEN}/mime`, form('mailgun-route-mime.json'), false),
      ],
      ['sendgrid parsed', (a) => postForm(a, `/inbound/v1/sendgrid/${TOKEN}`, form('sendgrid-parsed.json'))],
      ['sendgrid raw', (a) => postForm(a, `/inbound/v1/sendgrid/${TOKEN}`, form('sendgrid-raw.json'))],
      [
        'rfc822',
        (a) =>
          request(a)
            .post(`/inbound/v1/rfc822/${TOKEN}`)
            .set('Content-Type', 'message/rfc822')
            .send(fixture('prealert.eml')),
      ],
    ];
    for (const [name, send] of sends) {
      // A fresh ledger per path: each must reach the submitter on its own.
      await db.destroy();
      db = await openDatabase({ file: ':memory:' });
      const s = recordingSubmitter();
      const res = await send(app({ submitter: s }));
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body).toMatchObject({ status: 'accepted', taskId: 'task-1', state: 'input-required' });
      expect(s.submissions).toHaveLength(1);
      expect(s.submissions[0]!.source).toEqual({ kind: 'webhook', name: name.split(' ')[0] });
      expect(s.submissions[0]!.tenant).toBe(ACME);
      expect(await normalised(s.submissions[0]!.raw), name).toEqual(expected);
    }
  });

  it('uses Postmark RawEmail byte for byte when it is there', async () => {
    await request(app())
      .post(`/inbound/v1/postmark/${TOKEN}`)
      .send(json('postmark-inbound-raw.json'))
      .expect(200);
    expect(submitter.submissions[0]!.raw.toString('utf8')).toBe(fixture('prealert.eml'));
  });

  it('triages a retried webhook once and answers the retry with the first task', async () => {
    const a = app();
    const first = await request(a)
      .post(`/inbound/v1/postmark/${TOKEN}`)
      .send(json('postmark-inbound.json'))
      .expect(200);
    const retry = await request(a)
      .post(`/inbound/v1/postmark/${TOKEN}`)
      .send(json('postmark-inbound.json'))
      .expect(200);
    expect(first.body).toEqual({ status: 'accepted', taskId: 'task-1', state: 'input-required' });
    expect(retry.body).toEqual({ status: 'duplicate', taskId: 'task-1', state: 'input-required' });
    expect(submitter.submissions).toHaveLength(1);
  });

  it('triages the same mail arriving by two paths (rfc822 relay and SendGrid) once', async () => {
    const a = app();
    await request(a)
      .post(`/inbound/v1/rfc822/${TOKEN}`)
      .set('Content-Type', 'message/rfc822')
      .send(fixture('prealert.eml'))
      .expect(200);
    const second = await postForm(a, `/inbound/v1/sendgrid/${TOKEN}`, form('sendgrid-parsed.json')).expect(
      200,
    );
    expect(second.body.status).toBe('duplicate');
    expect(submitter.submissions).toHaveLength(1);
  });

  it('dedupes a retried Postmark post of mail without a Message-ID (the rebuilt message is deterministic)', async () => {
    const payload = json('postmark-inbound.json');
    payload.Headers = (payload.Headers as { Name: string }[]).filter((h) => h.Name !== 'Message-ID');
    const a = app();
    await request(a).post(`/inbound/v1/postmark/${TOKEN}`).send(payload).expect(200);
    const retry = await request(a).post(`/inbound/v1/postmark/${TOKEN}`).send(payload).expect(200);
    expect(retry.body.status).toBe('duplicate');
    expect(submitter.submissions).toHaveLength(1);
  });

  it('refuses a wrong Mailgun signature with 406, so Mailgun does not retry a forged post', async () => {
    const forged = {
      ...MG,
      fields: { ...MG.fields, signature: createHmac('sha256', 'not-the-key').update('x').digest('hex') },
    };
    const res = await postForm(app(), `/inbound/v1/mailgun/${TOKEN}`, forged).expect(406);
    expect(res.body.error.code).toBe('UNAUTHENTICATED');
    expect(res.body.error.message).toMatch(/signature does not match/);
    expect(submitter.submissions).toHaveLength(0);
    expect(JSON.stringify(log.entries)).not.toContain(TOKEN);
  });

  it('refuses a replayed (stale) Mailgun post with 406 and one without signature fields', async () => {
    const res = await postForm(
      app({ nowMs: MG_NOW_MS + 3_600_000 }),
      `/inbound/v1/mailgun/${TOKEN}`,
      MG,
    ).expect(406);
    expect(res.body.error.message).toMatch(/more than 900 s from now/);
    const { signature: _s, ...unsigned } = MG.fields;
    const res2 = await postForm(app(), `/inbound/v1/mailgun/${TOKEN}`, { ...MG, fields: unsigned }).expect(
      406,
    );
    expect(res2.body.error.message).toMatch(/timestamp, token and signature are missing/);
    expect(submitter.submissions).toHaveLength(0);
  });

  it('refuses the same signed Mailgun payload posted twice inside the window with 406, and its signature on another body too', async () => {
    const a = app();
    await postForm(a, `/inbound/v1/mailgun/${TOKEN}`, MG).expect(200);
    const replay = await postForm(a, `/inbound/v1/mailgun/${TOKEN}`, MG).expect(406);
    expect(replay.body.error.code).toBe('UNAUTHENTICATED');
    expect(replay.body.error.message).toMatch(/already used by a post received at .*refused as a replay/);
    // Mailgun signs timestamp + token only: the same signature must not carry another message in.
    const forged = {
      ...MG,
      fields: {
        ...MG.fields,
        subject: 'Pay the invoice to a new account',
        'body-plain': 'Bank details changed, see attached.',
        'Message-Id': '<forged-0001@attacker.example>',
      },
      files: [],
    };
    const other = await postForm(a, `/inbound/v1/mailgun/${TOKEN}`, forged, false).expect(406);
    expect(other.body.error.message).toMatch(/refused as a replay/);
    expect(submitter.submissions).toHaveLength(1);
    expect(JSON.stringify(log.entries)).not.toContain(MG.fields.token!);
    // Once the timestamp has left the window the stale check refuses it, as before.
    await postForm(app({ nowMs: MG_NOW_MS + 3_600_000 }), `/inbound/v1/mailgun/${TOKEN}`, MG).expect(406);
  });

  it('answers 404 on the Mailgun route of an endpoint without a signing key', async () => {
    const res = await postForm(
      app({ endpoints: [{ tenant: ACME, token: TOKEN }] }),
      `/inbound/v1/mailgun/${TOKEN}`,
      MG,
    ).expect(404);
    expect(res.body.error.message).toMatch(/signing key/);
  });

  it('refuses an unknown token with 401 naming the URL shape, and accepts the token as a Basic auth password', async () => {
    const res = await request(app())
      .post('/inbound/v1/postmark/wrong-token')
      .send(json('postmark-inbound.json'))
      .expect(401);
    expect(res.body.error).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(res.body.error.message).toMatch(/\/inbound\/v1\/postmark\/<token>/);
    await request(app())
      .post('/inbound/v1/postmark')
      .auth('postmark', TOKEN)
      .send(json('postmark-inbound.json'))
      .expect(200);
    expect(submitter.submissions).toHaveLength(1);
  });

  it('binds each token to its own tenant', async () => {
    const other = tenantId('other');
    const a = app({
      endpoints: [
        { tenant: ACME, token: TOKEN },
        { tenant: other, token: 'tok-other-77' },
      ],
    });
    await request(a)
      .post('/inbound/v1/rfc822/tok-other-77')
      .set('Content-Type', 'message/rfc822')
      .send(fixture('prealert.eml'))
      .expect(200);
    await request(a)
      .post(`/inbound/v1/rfc822/${TOKEN}`)
      .set('Content-Type', 'message/rfc822')
      .send(fixture('prealert.eml'))
      .expect(200);
    expect(submitter.submissions.map((s) => s.tenant)).toEqual([other, ACME]); // dedupe is per tenant
  });

  it('refuses a payload that is not the provider format: Postmark 403 (stops its retries), SendGrid 400, rfc822 415', async () => {
    const a = app();
    const pm = await request(a)
      .post(`/inbound/v1/postmark/${TOKEN}`)
      .send({ Attachments: 'none' })
      .expect(403);
    expect(pm.body.error.code).toBe('REQUEST_MALFORMED');
    expect(pm.body.error.message).toMatch(/not a Postmark inbound payload \(Attachments:/);
    const bad = await request(a)
      .post(`/inbound/v1/postmark/${TOKEN}`)
      .set('Content-Type', 'application/json')
      .send('{"From":')
      .expect(403);
    expect(bad.body.error.message).toMatch(/not valid JSON/);
    const sg = await request(a).post(`/inbound/v1/sendgrid/${TOKEN}`).field('spam_score', '0.1').expect(400);
    expect(sg.body.error.message).toMatch(/neither an email field \(raw mode\) nor headers\/from/);
    const raw = await request(a)
      .post(`/inbound/v1/rfc822/${TOKEN}`)
      .set('Content-Type', 'text/plain')
      .send('hello')
      .expect(415);
    expect(raw.body.error.message).toMatch(/Content-Type: message\/rfc822/);
    expect(submitter.submissions).toHaveLength(0);
  });

  it('refuses a message over the limit, and one parseMail refuses, in each provider convention', async () => {
    const limits = { maxMessageBytes: 4_000, maxHeaderBytes: 1_024 };
    const a = app({ limits });
    const big = 'x'.repeat(9_000);
    const pm = await request(a)
      .post(`/inbound/v1/postmark/${TOKEN}`)
      .send({ ...json('postmark-inbound.json'), TextBody: big });
    expect(pm.status).toBe(403);
    expect(pm.body.error.code).toBe('MESSAGE_TOO_LARGE');
    const sg = await postForm(a, `/inbound/v1/sendgrid/${TOKEN}`, {
      fields: { email: `Subject: big\r\n\r\n${'y'.repeat(20_000)}` },
      files: [],
    });
    expect(sg.status).toBe(413);
    const header = `X-Filler: ${'z'.repeat(2_000)}\r\n${fixture('prealert.eml')}`;
    const rf = await request(a)
      .post(`/inbound/v1/rfc822/${TOKEN}`)
      .set('Content-Type', 'message/rfc822')
      .send(header)
      .expect(413);
    expect(rf.body.error).toMatchObject({ code: 'MESSAGE_TOO_LARGE' });
    expect(rf.body.error.message).toMatch(/header block/);
    expect(submitter.submissions).toHaveLength(0);
  });

  it('answers 503 when triage fails (so the provider retries) and triages the retry: nothing lost', async () => {
    let fail = true;
    const flaky = recordingSubmitter(() => {
      if (fail) throw new Error('database is locked');
    });
    const a = app({ submitter: flaky });
    const res = await postForm(a, `/inbound/v1/mailgun/${TOKEN}`, MG).expect(503);
    expect(res.body.error).toMatchObject({ code: 'INTERNAL' });
    expect(JSON.stringify(res.body)).not.toContain('database is locked');
    fail = false;
    await postForm(a, `/inbound/v1/mailgun/${TOKEN}`, MG).expect(200);
    expect(flaky.submissions).toHaveLength(1);
  });

  it('refuses a Mailgun replay after a restart, from the spent tokens kept in the ingest store (issue 12.5)', async () => {
    // A server on a database file; "restart" = a new router (empty memory) over the file reopened.
    await onDatabaseFile(async (restart) => {
      await postForm(app(), `/inbound/v1/mailgun/${TOKEN}`, MG).expect(200);
      await restart();
      const replay = await postForm(app(), `/inbound/v1/mailgun/${TOKEN}`, MG).expect(406);
      expect(replay.body.error.message).toMatch(/already used by a post received at .*refused as a replay/);
      // The same signature carrying another message is refused too, not let in as a new message.
      const forged = {
        ...MG,
        fields: { ...MG.fields, 'Message-Id': '<forged-0002@attacker.example>', 'body-plain': 'New bank.' },
        files: [],
      };
      await postForm(app(), `/inbound/v1/mailgun/${TOKEN}`, forged, false).expect(406);
      expect(submitter.submissions).toHaveLength(1);
      // Only the token's digest is kept, per tenant, and it goes once its window has passed.
      const rows = await sql<{ tenant: string; token_hash: string }>`select * from webhook_tokens`.execute(
        db,
      );
      expect(rows.rows).toHaveLength(1);
      expect(rows.rows[0]!.tenant).toBe(ACME);
      expect(JSON.stringify(rows.rows)).not.toContain(MG.fields.token!);
      await postForm(app({ nowMs: MG_NOW_MS + 3_600_000 }), `/inbound/v1/mailgun/${TOKEN}`, MG).expect(406);
    });
  });

  it('gives a spent token back in the store when the post is answered 503, so the retry after a restart is read', async () => {
    await onDatabaseFile(async (restart) => {
      const failing = recordingSubmitter(() => {
        throw new Error('database is locked');
      });
      await postForm(app({ submitter: failing }), `/inbound/v1/mailgun/${TOKEN}`, MG).expect(503);
      await restart();
      await postForm(app(), `/inbound/v1/mailgun/${TOKEN}`, MG).expect(200);
      expect(submitter.submissions).toHaveLength(1);
    });
  });
});
