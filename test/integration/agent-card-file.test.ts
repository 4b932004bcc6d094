// Invariant: agent-card.json at the repository top is exactly the card the demo configuration serves.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startInProcess, type Host } from '../e2e/host.ts';

const hosts: Host[] = [];
afterEach(async () => {
  while (hosts.length > 0) await hosts.pop()!.close();
});

describe('agent-card.json', () => {
  it('equals the card served by the demo configuration (defaults; the URL the default HOST:PORT gives)', async () => {
    // The defaults serve on 127.0.0.1:8080; the test listens on a free port and says so through PUBLIC_URL.
    const host = await startInProcess({ PUBLIC_URL: 'http://127.0.0.1:8080' });
    hosts.push(host);
    const served = await (
      await fetch(`${host.url}/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } })
    ).json();
    const file = JSON.parse(
      readFileSync(new URL('../../agent-card.json', import.meta.url), 'utf8'),
    ) as unknown;
    expect(served).toEqual(file);
  });
});
