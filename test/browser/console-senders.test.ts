// Invariant (issue 38): the console's Senders page shows every sender, the customers its mail was read or answered as, whether its address settles a message alone (and why not), and the lessons resting on it, each taken back in one step; axe-core finds no serious violation.
/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON is read loosely; the assertions check its shape */
import { describe, expect, it } from 'vitest';
import { startInProcess } from '../e2e/host.ts';
import { jsonRpc } from '../support/calls.ts';
import { browserTestHooks, expectAccessible, newPage, sendMail, shot, signIn } from './browser.ts';

const { browser, hosts } = browserTestHooks();
const FORWARDER = 'desk@fwd-cargo.example';

describe('the Senders page (issue 38)', () => {
  it('shows who writes for whom, that a forwarder no longer settles alone, and takes its lesson back', async () => {
    const host = await startInProcess();
    hosts.push(host);
    const token = host.token!;
    const lesson = await fetch(`${host.url}/authority/v1/lessons`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({
        collection: 'customers',
        entry: 'northgate',
        value: { pattern: FORWARDER, where: 'from' },
        taughtBy: 'dana@warehouse.example',
        reason: 'the desk sends Northgate pre-alerts',
      }),
    });
    expect(lesson.status).toBe(200);
    const activation = ((await lesson.json()) as any).definitionVersion as number;
    await sendMail(host.url, token, { from: FORWARDER, subject: 'Pre-alert 1', messageId: 's1@fwd.example' });
    const asked = await sendMail(host.url, token, {
      from: FORWARDER,
      subject: 'Pre-alert 2',
      messageId: 's2@fwd.example',
      body: 'For our client Al Hamra Trading, please find the details.',
    });
    const answered = await jsonRpc(host.url, token, 'SendMessage', {
      message: {
        messageId: 'answer-s2',
        role: 'ROLE_USER',
        taskId: asked.id,
        parts: [{ data: { entry: 'alhamra' } }],
      },
    });
    expect(answered.result.task.status.state).toBe('TASK_STATE_COMPLETED');

    const page = await newPage(browser());
    await signIn(page, host.url, token);
    await page.getByRole('link', { name: 'Senders' }).click();
    const row = page
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: FORWARDER, exact: true }) });
    await row.waitFor();
    const text = (await row.textContent()) ?? '';
    expect(text).toContain('Northgate Motors Ltd: 1 message');
    expect(text).toContain('Al Hamra Trading: 1 message');
    expect(text).toContain('No. ');
    expect(text).toContain('it writes for more than one customer');
    expect(text).toContain(`(activation ${activation})`);
    await shot(page, 'senders');
    await expectAccessible(page);

    // One action takes the lesson back.
    await row.getByLabel(`Why revert activation ${activation}`).fill('the desk writes for several customers');
    await row.getByRole('button', { name: `Revert this lesson (activation ${activation})` }).click();
    await page.getByText(/^Reverted: /).waitFor();
    await page.getByRole('link', { name: 'History' }).click();
    await page.getByRole('link', { name: 'Senders' }).click();
    const after = page
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: FORWARDER, exact: true }) });
    await after.waitFor();
    await expect.poll(async () => (await after.textContent()) ?? '').toContain('None');
  }, 90_000);
});
