// Invariant (issue 18): GET /authority/v1/openapi.json describes every route of the authority API
// and the inbound webhooks in OpenAPI 3.1, and cannot drift: every documented example, sent to a
// running server, is answered with a documented status whose body the documented schema accepts.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Wire } from '../support/calls.ts';
import { startInProcess, type Host } from '../e2e/host.ts';

const INBOUND_TOKEN = 'openapi-inbound-token-0123456789';

let host: Host;
let doc: Wire;
beforeAll(async () => {
  host = await startInProcess({
    INBOUND_WEBHOOKS: JSON.stringify([{ tenant: 'demo', tokenEnv: 'OA_INBOUND' }]),
    OA_INBOUND: INBOUND_TOKEN,
  });
  const res = await fetch(`${host.url}/authority/v1/openapi.json`); // public, like the card
  expect(res.status).toBe(200);
  doc = await res.json();
});
afterAll(() => host.close());

/** The example values of the document, with the live ones a fresh server cannot know in advance. */
async function live(name: string, example: string): Promise<string> {
  if (name === 'token') return INBOUND_TOKEN;
  if (name === 'versionId') {
    const head = await fetch(`${host.url}/authority/v1/head`, {
      headers: { authorization: `Bearer ${host.token}` },
    });
    return ((await head.json()) as Wire).versionId as string;
  }
  return example;
}

describe('the OpenAPI description', () => {
  it('is OpenAPI 3.1 with JSON Schema 2020-12, covering the authority API and the webhooks', () => {
    expect(doc.openapi).toBe('3.1.0');
    const paths = Object.keys(doc.paths);
    for (const p of [
      '/authority/v1/lessons',
      '/authority/v1/rollback',
      '/authority/v1/erase',
      '/authority/v1/head',
      '/authority/v1/whoami',
      '/inbound/v1/rfc822/{token}',
    ])
      expect(paths).toContain(p);
  });

  it('answers every documented example with a documented status and a body its schema accepts', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    let sent = 0;
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, Wire>>)) {
      for (const [method, op] of Object.entries(ops)) {
        let url = path;
        const query = new URLSearchParams();
        for (const p of (op.parameters ?? []) as Wire[]) {
          if (p.example === undefined) continue;
          const value = await live(p.name, p.example);
          if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(value));
          else query.set(p.name, value);
        }
        const [contentType, content] =
          Object.entries((op.requestBody?.content ?? {}) as Record<string, Wire>)[0] ?? [];
        const res = await fetch(`${host.url}${url}${query.size > 0 ? `?${query.toString()}` : ''}`, {
          method: method.toUpperCase(),
          headers: {
            ...(op.security?.length === 0 ? {} : { authorization: `Bearer ${host.token}` }),
            ...(contentType === undefined ? {} : { 'content-type': contentType }),
          },
          ...(content === undefined
            ? {}
            : {
                body: typeof content.example === 'string' ? content.example : JSON.stringify(content.example),
              }),
        });
        const body: unknown = await res.json();
        const documented = op.responses[String(res.status)];
        expect(documented, `${method} ${path} answered ${res.status}: ${JSON.stringify(body)}`).toBeDefined();
        // The examples are written to succeed on a fresh demo server.
        expect(res.status, `${method} ${path}: ${JSON.stringify(body)}`).toBeLessThan(300);
        const validate = ajv.compile(documented.content['application/json'].schema);
        expect(
          validate(body),
          `${method} ${path}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(body)}`,
        ).toBe(true);
        sent++;
      }
    }
    expect(sent).toBe(
      Object.values(doc.paths as Record<string, object>).reduce((n, ops) => n + Object.keys(ops).length, 0),
    );
  });
});
