// Invariant (issue 40): a delivery URL reaches only public addresses over https, judged after DNS and again on the socket that sends (a name that rebinds to a private address between the two is refused), unless its host is listed in PUSH_NOTIFICATION_ALLOWED_HOSTS.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { DueDelivery } from '../domain/delivery.ts';
import type { TenantId } from '../domain/tenant.ts';
import { sendDelivery } from './send.ts';
import { createUrlGuard, RefusedUrlError, type Resolve } from './url-guard.ts';

const resolving =
  (table: Record<string, string[]>): Resolve =>
  (host) => {
    const a = table[host];
    if (a === undefined) return Promise.reject(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }));
    return Promise.resolve(a.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  };

const SECRET = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
const delivery: DueDelivery = {
  id: 'd1',
  tenant: 'demo' as TenantId,
  targetKind: 'webhook',
  targetId: 'e1',
  taskId: 't1',
  event: 'decided',
  body: '{}',
  attempts: 1,
  target: null,
};

describe('the delivery URL rule', () => {
  it('refuses a name that resolves to a private address, if any of its addresses is one', async () => {
    const guard = createUrlGuard({
      allowedHosts: [],
      resolve: resolving({ 'hooks.example': ['93.184.216.34', '10.0.0.7'], 'ok.example': ['93.184.216.34'] }),
    });
    await expect(guard.checkUrl('https://hooks.example/in')).rejects.toThrow(
      /10\.0\.0\.7, a private address/,
    );
    await expect(guard.checkUrl('https://ok.example/in')).resolves.toBeInstanceOf(URL);
  });

  it.each([
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['192.0.2.1', 'reserved'],
    ['224.0.0.1', 'multicast'],
    ['fc00::1', 'uniqueLocal'],
    ['::ffff:127.0.0.1', 'loopback'],
    // Issue 50: every IPv6 form that embeds an IPv4 address is judged as that address.
    ['::127.0.0.1', 'loopback'],
    ['::7f00:1', 'loopback'],
    ['::a9fe:a9fe', 'linkLocal'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['64:ff9b:1::a00:1', 'private'],
    ['2002:7f00:1::', 'loopback'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback'],
  ])('refuses %s (%s)', async (address, range) => {
    const guard = createUrlGuard({ allowedHosts: [], resolve: resolving({ 'h.example': [address] }) });
    await expect(guard.checkUrl('https://h.example/')).rejects.toThrow(`a ${range} address`);
  });

  it.each(['::8.8.8.8', '64:ff9b::808:808', '2002:808:808::1', '2606:4700::1111'])(
    'lets an IPv6 address through whose embedded IPv4 address is public, or that embeds none: %s',
    async (address) => {
      const guard = createUrlGuard({ allowedHosts: [], resolve: resolving({ 'h.example': [address] }) });
      await expect(guard.checkUrl('https://h.example/')).resolves.toBeInstanceOf(URL);
    },
  );

  it('refuses the literal https://[::127.0.0.1]/ as loopback (issue 50)', async () => {
    const guard = createUrlGuard({ allowedHosts: [], resolve: resolving({}) });
    await expect(guard.checkUrl('https://[::127.0.0.1]:8443/')).rejects.toThrow(/a loopback address/);
  });

  it('lets a listed host through, by host or host:port, and only it over http', async () => {
    const guard = createUrlGuard({
      allowedHosts: ['hooks.internal', '127.0.0.1:9000'],
      resolve: resolving({}),
    });
    await expect(guard.checkUrl('http://hooks.internal:8080/x')).resolves.toBeInstanceOf(URL);
    await expect(guard.checkUrl('http://127.0.0.1:9000/x')).resolves.toBeInstanceOf(URL);
    await expect(guard.checkUrl('http://127.0.0.1:9001/x')).rejects.toThrow(/must be https/);
    await expect(guard.checkUrl('ftp://hooks.internal/x')).rejects.toThrow(/must be https/);
  });

  it('says a name that does not resolve may pass later (a retry), unlike a refusal', async () => {
    const guard = createUrlGuard({ allowedHosts: [], resolve: resolving({}) });
    await expect(guard.checkUrl('https://gone.example/')).rejects.toBeInstanceOf(RefusedUrlError);
    const outcome = await sendDelivery(
      delivery,
      { url: 'https://gone.example/', secret: SECRET },
      guard,
      2000,
    );
    expect(outcome.kind).toBe('retry');
    expect(outcome.kind === 'retry' ? outcome.error : '').toMatch(/ENOTFOUND/);
  });

  it('checks again on the socket: a name that rebinds to loopback after the check is not connected to', async () => {
    // A real listener on loopback, which the name must never reach.
    let reached = 0;
    const server = createServer((_req, res) => {
      reached++;
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    let calls = 0;
    const rebinding: Resolve = () =>
      Promise.resolve([{ address: ++calls === 1 ? '93.184.216.34' : '127.0.0.1', family: 4 }]);
    // http for the test's loopback listener: the port rule is checked on the socket all the same.
    const guard = createUrlGuard({ allowedHosts: [], resolve: rebinding });
    // Stored while the name was public; sent once it points at loopback.
    await expect(guard.checkUrl(`https://rebind.example:${port}/hook`)).resolves.toBeInstanceOf(URL);
    const outcome = await sendDelivery(
      delivery,
      { url: `https://rebind.example:${port}/hook`, secret: SECRET },
      guard,
      2000,
    );
    server.close();
    expect(outcome.kind).toBe('refused');
    expect(outcome.kind === 'refused' ? outcome.error : '').toMatch(/127\.0\.0\.1, a loopback address/);
    expect(reached).toBe(0);
  });
});
