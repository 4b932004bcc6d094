// Invariant: the server serves the built console at /console with a strict content security policy (and says how to build it when it is missing), answers CORS preflights on the authority API so a console can reach an authority in another process (§12.1), and GET /authority/v1/entries lists one collection's entries of the token's tenant by their learnable's label, searchable, refusing bad input in the API's error shape (§13.2).
import express from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleRouter } from '../../src/http/console.ts';
import { startInProcess, type Host } from '../e2e/host.ts';
import { personToken } from '../support/cli-token.ts';

let host: Host;
let acmeToken = '';
beforeAll(async () => {
  host = await startInProcess();
  acmeToken = await personToken(host.dataDir, 'acme', 'ops@acme.example', 'read');
});
afterAll(async () => {
  await host?.close();
});

const get = (path: string, token: string | null = host.token) =>
  fetch(`${host.url}${path}`, token === null ? {} : { headers: { Authorization: `Bearer ${token}` } });

describe('GET /authority/v1/entries', () => {
  it('lists entries by their labels and searches name and label case-insensitively', async () => {
    const all = await get('/authority/v1/entries?collection=customers');
    expect(all.status).toBe(200);
    const body = (await all.json()) as { total: number; entries: { name: string; label: string }[] };
    expect(body.entries).toContainEqual({ name: 'northgate', label: 'Northgate Motors Ltd' });
    expect(body.total).toBe(body.entries.length);
    const found = (await (
      await get('/authority/v1/entries?collection=customers&q=MOTORS')
    ).json()) as typeof body;
    expect(found).toMatchObject({
      total: 1,
      entries: [{ name: 'northgate', label: 'Northgate Motors Ltd' }],
    });
    const capped = (await (
      await get('/authority/v1/entries?collection=customers&limit=1')
    ).json()) as typeof body;
    expect(capped.entries).toHaveLength(1);
    expect(capped.total).toBe(body.total);
  });

  it('refuses an unknown collection and a bad limit, naming the value and what to do', async () => {
    const unknown = await get('/authority/v1/entries?collection=tariffs');
    expect(unknown.status).toBe(422);
    const e = (await unknown.json()) as { error: { code: string; message: string } };
    expect(e.error.code).toBe('COLLECTION_UNKNOWN');
    expect(e.error.message).toContain('"tariffs"');
    expect(e.error.message).toContain('customers');
    const bad = await get('/authority/v1/entries?collection=customers&limit=0');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('REQUEST_MALFORMED');
  });

  it("needs a token and shows only the token's tenant (§13.2)", async () => {
    expect((await get('/authority/v1/entries?collection=customers', null)).status).toBe(401);
    const other = await get('/authority/v1/entries?collection=customers', acmeToken);
    expect(JSON.stringify(await other.json())).not.toContain('northgate');
  });
});

describe('/console and CORS', () => {
  it('serves the built console with a content security policy', async () => {
    const res = await get('/console/', null);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(await res.text()).toContain('<title>Operator console');
  });

  it('says how to build the console when the bundle is missing', async () => {
    const app = express().use('/console', consoleRouter('/nonexistent/console-dist'));
    const res = await request(app).get('/console/');
    expect(res.status).toBe(503);
    expect(res.text).toContain('npm run build:console');
  });

  it('answers a CORS preflight on the authority API before any token check (§12.1)', async () => {
    const res = await fetch(`${host.url}/authority/v1/lessons`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://127.0.0.1:9',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toContain('Authorization');
  });
});
