// Invariant (issue 27, §13.3, §8): a person types a mark as they see it. Typed plain in the console,
// `billing@origin.example` settles the next mail from that address and not one from
// `ebilling@origin.example.net` (the learnable bounds it whole); a reference typed plain is taken
// whole; the rules in force and the history show what was typed, without regex syntax.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
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

function state(task: Record<string, unknown>): string {
  return (task.status as { state: string }).state;
}

describe('marks in people’s words, in the console (issue 27)', () => {
  it('settles the next mail from a typed address, and not one from a longer address around it', async () => {
    const host = await hostWithQuestion(hosts);
    const page = await newPage(browser());
    await signIn(page, host.url, host.token!);
    await answerTyping(page, FIRST_MAIL.from, 'from');
    await shot(page, 'plain-address-effect');
    await expectAccessible(page);

    const next = await sendMail(host.url, host.token!, {
      from: 'billing@origin.example',
      subject: 'Pre-alert PA-2026-0944',
      messageId: 'pa-0944@origin.example',
    });
    expect(state(next)).toBe('TASK_STATE_COMPLETED');
    const longer = await sendMail(host.url, host.token!, {
      from: 'ebilling@origin.example.net',
      subject: 'Pre-alert PA-2026-0945',
      messageId: 'pa-0945@origin.example.net',
    });
    expect(state(longer)).toBe('TASK_STATE_INPUT_REQUIRED');

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

    const again = await sendMail(host.url, host.token!, {
      from: 'desk@elsewhere.example',
      subject: 'Re: Pre-alert PA-2026-0901',
      messageId: 'pa-0901-re@elsewhere.example',
    });
    expect(state(again)).toBe('TASK_STATE_COMPLETED');
    const longer = await sendMail(host.url, host.token!, {
      from: 'desk@elsewhere.example',
      subject: 'Pre-alert PA-2026-0901-7',
      messageId: 'pa-0901-7@elsewhere.example',
    });
    expect(state(longer)).toBe('TASK_STATE_INPUT_REQUIRED');
  }, 60_000);
});
