// Invariant: the console's history shows every activation with who, why and the learnable's describes (§10.3, §13.4), the difference between two versions, a rollback as a new activation, and an erase of a personal identifier with what it removed (§14), with axe-core finding no serious violation.
/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON is read loosely; the assertions check its shape */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startInProcess, type Host } from '../e2e/host.ts';
import { expectAccessible, launchBrowser, newPage, shot, signIn } from './browser.ts';

let browser: Browser;
let host: Host;
beforeAll(async () => {
  browser = await launchBrowser();
  host = await startInProcess();
});
afterAll(async () => {
  await browser?.close();
  await host?.close();
});

async function post(path: string, body: object): Promise<any> {
  const res = await fetch(`${host.url}/authority/v1${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${host.token!}` },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return res.json();
}

describe('history, versions, rollback and erase in the console', () => {
  it('shows activations, a version difference, a rollback and what an erase removed', async () => {
    await post('/lessons', {
      collection: 'customers',
      entry: 'northgate',
      value: { pattern: 'billing@origin\\.example', where: 'from' },
      taughtBy: 'dana@warehouse.example',
      reason: 'the billing desk',
    });
    const page = await newPage(browser);
    await signIn(page, host.url, host.token!);
    await page.getByRole('link', { name: 'History' }).click();
    const v2 = page.getByRole('row').filter({ hasText: 'the billing desk' });
    await v2.waitFor();
    expect(await v2.textContent()).toContain('written by demo-operator');
    await v2.getByRole('button', { name: 'Compare v2 with the one before' }).click();
    await page
      .getByRole('region', { name: 'Difference' })
      .getByText('changed customers / northgate')
      .waitFor();
    await shot(page, 'history-difference');
    await expectAccessible(page);

    await page.getByLabel('Make this version active again').fill('1');
    await page.getByLabel('Why roll back').fill('back to the directory as imported');
    await page.getByRole('button', { name: 'Roll back' }).click();
    await page.getByText(/^Now version 3/).waitFor();
    await shot(page, 'history-rollback');
    await page.getByLabel('Identifier (an address, a name)').fill('billing@origin.example');
    await page.getByLabel('Why erase it').fill('the sender asked to be forgotten');
    await page.getByRole('button', { name: 'Erase' }).click();
    const erased = page.getByRole('region', { name: 'Erased' });
    await erased.getByText('tombstonedVersions: 1').waitFor();
    await shot(page, 'history-erased');

    const history = (await (
      await fetch(`${host.url}/authority/v1/history`, { headers: { Authorization: `Bearer ${host.token!}` } })
    ).json()) as any;
    expect(history.history.find((a: any) => a.action === 'rollback')).toMatchObject({
      action: 'rollback',
      reason: 'back to the directory as imported',
      taughtBy: 'dana@warehouse.example',
    });
    await expectAccessible(page);
  }, 60_000);
});
