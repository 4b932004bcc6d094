// Invariant (issue 40): the console's Deliveries page shows each delivery webhook and the A2A push notifications with what was delivered, what is still owed and the last error, so a receiver that is down is seen; axe-core finds no serious violation.
import { describe, expect, it } from 'vitest';
import { startInProcess } from '../e2e/host.ts';
import { freePort } from '../support/receiver.ts';
import { browserTestHooks, expectAccessible, newPage, sendMail, shot, signIn } from './browser.ts';

const { browser, hosts } = browserTestHooks();

describe('the Deliveries page (issue 40)', () => {
  it('shows a webhook whose receiver is down, with its error and what it still owes', async () => {
    const port = await freePort(); // nothing listens there
    const host = await startInProcess({
      PUSH_NOTIFICATION_ALLOWED_HOSTS: `127.0.0.1:${port}`,
      DELIVERY_RETRY_BASE_MS: '60000',
    });
    hosts.push(host);
    const token = host.token!;
    const created = await fetch(`${host.url}/authority/v1/deliveries`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ url: `http://127.0.0.1:${port}/hook`, events: ['input-required'] }),
    });
    expect(created.status).toBe(201);
    await sendMail(host.url, token, {
      from: 'ops@unseen.example',
      subject: 'Pre-alert 1',
      messageId: 'd1@unseen.example',
    });

    const page = await newPage(browser());
    await signIn(page, host.url, token);
    await page.getByRole('link', { name: 'Deliveries' }).click();
    const row = page.getByRole('row').filter({
      has: page.getByRole('rowheader', { name: `http://127.0.0.1:${port}/hook`, exact: true }),
    });
    await row.waitFor();
    // The first try has failed by the time the page is read again.
    for (let i = 0; i < 50 && !/ECONNREFUSED/.test((await row.textContent()) ?? ''); i++) {
      await new Promise((r) => setTimeout(r, 100));
      await page.getByRole('link', { name: 'Senders' }).click();
      await page.getByRole('link', { name: 'Deliveries' }).click();
    }
    const cells = await row.getByRole('cell').allTextContents();
    expect(cells[0]).toBe('input-required');
    expect(cells[2]).toBe('1'); // still owed
    expect(cells[4]).toMatch(/ECONNREFUSED reaching 127\.0\.0\.1/);
    await shot(page, 'deliveries');
    await expectAccessible(page);
  }, 60_000);
});
