// Invariant (issue 27, §13.3, §8): a person types a mark as they see it. Typed plain in the console,
// `billing@origin.example` settles the next mail from that address and not one from
// `ebilling@origin.example.net` (the learnable bounds it whole); a reference typed plain is taken
// whole; the rules in force and the history show what was typed, without regex syntax.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Host } from '../e2e/host.ts';
import {
  browserTestHooks,
  expectAccessible,
  FIRST_MAIL,
  hostWithQuestion,
  newPage,
  sendMail,
  shot,
  signIn,
} from './browser.ts';

const { browser, hosts } = browserTestHooks();

async function answerTyping(page: Page, typed: string, where: string): Promise<void> {
  await page.getByRole('link', { name: 'Questions' }).click();
  await page.getByRole('button', { name: /^Pre-alert PA-2026-0901 · from/ }).click();
  await page.getByText('The agent asks:').waitFor();
  await page.getByLabel('Search customers').fill('Northgate Motors Ltd');
  await expect.poll(() => page.getByRole('option', { name: 'Northgate Motors Ltd' }).count()).toBe(1);
  await page.getByLabel('Which customer').selectOption({ label: 'Northgate Motors Ltd' });
  const giveaway = page.getByLabel('Text that gives it away');
  await giveaway.fill('');
  await giveaway.pressSequentially(typed); // as a person types it
  await page.getByLabel('Where to look for it').selectOption(where);
  await page.getByRole('button', { name: 'Answer' }).click();
  await page.getByText('Reads as Northgate Motors Ltd', { exact: false }).first().waitFor();
}

type Mail = Parameters<typeof sendMail>[2];

/** The mail the typed mark should settle is settled; the one around a longer token is still asked about. */
async function expectSettledNotLonger(host: Host, same: Mail, longer: Mail): Promise<void> {
  const state = async (mail: Mail): Promise<string> =>
    ((await sendMail(host.url, host.token!, mail)).status as { state: string }).state;
  expect(await state(same)).toBe('TASK_STATE_COMPLETED');
  expect(await state(longer)).toBe('TASK_STATE_INPUT_REQUIRED');
}

describe('marks in people’s words, in the console (issue 27)', () => {
  it('settles the next mail from a typed address, and not one from a longer address around it', async () => {
    const host = await hostWithQuestion(hosts);
    const page = await newPage(browser());
    await signIn(page, host.url, host.token!);
    await answerTyping(page, FIRST_MAIL.from, 'from');
    await shot(page, 'plain-address-effect');
    await expectAccessible(page);

    await expectSettledNotLonger(
      host,
      {
        from: 'billing@origin.example',
        subject: 'Pre-alert PA-2026-0944',
        messageId: 'pa-0944@origin.example',
      },
      {
        from: 'ebilling@origin.example.net',
        subject: 'Pre-alert PA-2026-0945',
        messageId: 'pa-0945@origin.net',
      },
    );

    // The history says what was typed, in the learnable's words.
    await page.getByRole('link', { name: 'History' }).click();
    const row = page.getByRole('row').filter({ hasText: "matches 'billing@origin.example' in the from" });
    await row.first().waitFor();
    expect(await row.first().textContent()).not.toMatch(/\\|\(\?:/);
  }, 60_000);

  it('takes a typed reference whole: never inside a longer reference', async () => {
    const host = await hostWithQuestion(hosts);
    const page = await newPage(browser());
    await signIn(page, host.url, host.token!);
    await answerTyping(page, 'PA-2026-0901', 'subject');

    const from = 'desk@elsewhere.example';
    await expectSettledNotLonger(
      host,
      { from, subject: 'Re: Pre-alert PA-2026-0901', messageId: 'pa-0901-re@elsewhere.example' },
      { from, subject: 'Pre-alert PA-2026-0901-7', messageId: 'pa-0901-7@elsewhere.example' },
    );
  }, 60_000);
});
