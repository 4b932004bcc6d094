// Invariant: the console lets a person see and fix a lesson that went wrong, in the learnable's and the agent's own words: a refused lesson shows the learnable's reason next to the field it concerns (§10.1), an unsettled show-back is shown as prominently as a settled one with what the agent saw (§11), a dry run lists every message already read that would change hands (§13.1), a misroute is corrected by reverting exactly one activation, keeping every later one, and teaching the right one (§10.3, §13.4), and an operator never sees another tenant's tasks (§13.2).
/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON is read loosely; the assertions check its shape */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Host } from '../e2e/host.ts';
import { cliIn, personToken } from '../support/cli-token.ts';
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

const SENDER = FIRST_MAIL.from;

async function signedInWithQuestion(): Promise<{ host: Host; page: Page }> {
  const host = await hostWithQuestion(hosts);
  const page = await newPage(browser());
  await signIn(page, host.url, host.token!);
  return { host, page };
}

async function openQuestion(page: Page, subject = 'Pre-alert PA-2026-0901'): Promise<void> {
  await page.getByRole('link', { name: 'Questions' }).click();
  await page.getByRole('button', { name: new RegExp(`^${subject} · from`) }).click();
  await page.getByText('The agent asks:').waitFor();
}

async function choose(page: Page, label: string): Promise<void> {
  await page.getByLabel('Search customers').fill(label);
  await expect.poll(() => page.getByRole('option', { name: label }).count()).toBe(1);
  await page.getByLabel('Which customer').selectOption({ label });
}

/** A pre-alert the demo directory reads as Al Hamra Trading's (its domain mark), already read. */
async function settledAlHamraPreAlert(host: Host): Promise<void> {
  const settled = await sendMail(host.url, host.token!, {
    from: 'ops@alhamra-trading.example',
    subject: 'Pre-alert AHT/2026/0001',
    messageId: 'aht-0001@alhamra-trading.example',
  });
  expect((settled.status as { state: string }).state).toBe('TASK_STATE_COMPLETED');
}

async function authorityGet(host: Host, path: string): Promise<any> {
  const res = await fetch(`${host.url}/authority/v1${path}`, {
    headers: { Authorization: `Bearer ${host.token!}` },
  });
  return res.json();
}

describe('fixing what went wrong in the console', () => {
  it("shows a refused lesson in the learnable's words next to the field it concerns, and does not answer (§10.1)", async () => {
    const { page } = await signedInWithQuestion();
    await openQuestion(page);
    await choose(page, 'Northgate Motors Ltd');
    await page.getByLabel('Text that gives it away').fill('billing@origin\\.example(');
    await page.getByRole('button', { name: 'Answer' }).click();
    const field = page.locator('.field').filter({ has: page.getByLabel('Text that gives it away') });
    await field.getByText('is not a usable pattern', { exact: false }).waitFor();
    expect(await page.getByLabel('Text that gives it away').getAttribute('aria-invalid')).toBe('true');
    await shot(page, 'refused-lesson');
    await expectAccessible(page);
    // Nothing was answered: the question still waits.
    await page.getByRole('link', { name: 'Questions' }).click();
    await page.getByRole('button', { name: /^Pre-alert PA-2026-0901 · from/ }).waitFor();
  }, 60_000);

  it('shows an unsettled show-back, with what the agent saw, when a saved lesson does not do what was meant (§11)', async () => {
    const { page } = await signedInWithQuestion();
    await openQuestion(page);
    await choose(page, 'Northgate Motors Ltd');
    await page.getByLabel('Where to look for it').selectOption('subject'); // the address is not in the subject
    await page.getByRole('button', { name: 'Answer' }).click();
    await page.getByText('Still cannot tell whose this is', { exact: false }).waitFor();
    await page.getByText('What it saw:').waitFor();
    expect(await page.getByText('Reads as Northgate Motors Ltd', { exact: false }).count()).toBe(0);
    await shot(page, 'unsettled-show-back');
    await expectAccessible(page);
  }, 60_000);

  it('lists every message already read that a lesson would take from its customer, before teaching (§13.1)', async () => {
    const { host, page } = await signedInWithQuestion();
    await settledAlHamraPreAlert(host);
    await openQuestion(page);
    await choose(page, 'Northgate Motors Ltd');
    // Over-broad: the address of another customer's mail.
    await page.getByLabel('Text that gives it away').fill('alhamra-trading\\.example');
    await page.getByRole('button', { name: 'Check against messages already read' }).click();
    await page.getByText(/It matches 1 of the 2 messages already read/).waitFor();
    await page.getByText(/1 already read would change hands/).waitFor();
    const change = page.getByText('Pre-alert AHT/2026/0001: Al Hamra Trading → nobody');
    await change.click(); // open it
    await page
      .getByText(
        /Message mid:aht-0001@alhamra-trading\.example now reads as Al Hamra Trading; after this lesson as nobody\./,
      )
      .waitFor();
    await shot(page, 'dry-run-conflict');
    await expectAccessible(page);
  }, 60_000);

  it('shows a lesson that would re-file mail already read refused with the messages, next to the choice the card declares, and teaches it once the person chooses re-file (§13.1, issue 26)', async () => {
    const { host, page } = await signedInWithQuestion();
    await settledAlHamraPreAlert(host);
    await openQuestion(page);
    await choose(page, 'Northgate Motors Ltd');
    await page.getByLabel('Text that gives it away').fill('alhamra-trading\\.example');
    await page.getByRole('button', { name: 'Answer' }).click();
    // The refusal names the message and whose it is, next to the choice the card declares (§6.3).
    const select = page.getByLabel('If this would change mail already read');
    const field = page.locator('.field').filter({ has: select });
    await field
      .getByText(
        /^This would leave undecided 1 message already read as Al Hamra Trading: 'Pre-alert AHT\/2026\/0001' on \d+ \w+\./,
      )
      .waitFor();
    expect(await select.getAttribute('aria-invalid')).toBe('true');
    expect(await select.inputValue()).toBe('refuse');
    await shot(page, 'refused-refile');
    await expectAccessible(page);
    // Nothing was learned.
    const before = await authorityGet(host, '/history');
    expect(before.history.some((a: any) => JSON.stringify(a).includes('alhamra-trading'))).toBe(false);
    // The person means it: the same lesson with "re-file" is taught, and the history records the choice.
    await select.selectOption('re-file');
    await page.getByRole('button', { name: 'Answer' }).click();
    await page.getByText('What it saw:').waitFor();
    const after = await authorityGet(host, '/history');
    const taught = after.history.find((a: any) => JSON.stringify(a).includes('alhamra-trading'));
    expect(JSON.stringify(taught)).toContain('re-file');
  }, 60_000);

  it('corrects a misroute by reverting that one lesson, keeping every later one, and teaching the right one (§10.3, §13.4)', async () => {
    const { host, page } = await signedInWithQuestion();
    // The wrong answer, remembered: billing@origin.example is taught as Gulftrade (activation 2).
    await openQuestion(page);
    await choose(page, 'Gulftrade');
    await page.getByLabel('Why (kept in the history)').fill('looked like Gulftrade');
    await page.getByRole('button', { name: 'Answer' }).click();
    await page.getByText(`Reads as Gulftrade, on ${SENDER}`).waitFor();
    // A later, unrelated lesson (activation 3) that the correction must keep.
    const later = await fetch(`${host.url}/authority/v1/lessons`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${host.token!}` },
      body: JSON.stringify({
        collection: 'customers',
        entry: 'brandt',
        value: { pattern: 'logistik@brandt-partner\\.example', where: 'from' },
        taughtBy: 'dana@warehouse.example',
        reason: 'Brandt’s forwarder',
      }),
    });
    expect(later.status).toBe(200);
    // The next mail is misrouted to Gulftrade.
    await sendMail(host.url, host.token!, {
      from: SENDER,
      subject: 'Pre-alert PA-2026-0902',
      messageId: 'pa-0902@origin.example',
    });
    await page.getByRole('link', { name: 'Decided' }).click();
    await page.getByRole('button', { name: /^Pre-alert PA-2026-0902 · Reads as Gulftrade/ }).click();
    await page.getByRole('button', { name: 'This is not right' }).click();
    const lesson = page.getByText(
      /^gulftrade: matches .*billing@origin.* Taught by dana@warehouse\.example, via demo-operator on .* \(activation 2\)\.$/,
    );
    await lesson.waitFor();
    await page
      .getByLabel('Why revert activation 2')
      .fill('billing@origin.example is Northgate, not Gulftrade');
    await shot(page, 'misroute-deciding-marks');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Revert this lesson (activation 2)' }).click();
    await page.getByText(/^Reverted: .*Every later lesson is kept\.$/).waitFor();
    await page.getByRole('button', { name: 'Teach the right one' }).first().click();
    await choose(page, 'Northgate Motors Ltd');
    await page.getByLabel('Text that gives it away').fill('billing@origin\\.example');
    await page.getByLabel('Why (kept in the history)').fill('Northgate’s billing desk');
    await page.getByRole('button', { name: 'Teach', exact: true }).click();
    // Issue 26 (§13.1): the two messages already filed under Gulftrade would move; the person says so.
    const choice = page
      .locator('.field')
      .filter({ has: page.getByLabel('If this would change mail already read') });
    await choice.getByText(/^This would re-file 2 messages already read as Gulftrade: /).waitFor();
    await page.getByLabel('If this would change mail already read').selectOption('re-file');
    await page.getByRole('button', { name: 'Teach', exact: true }).click();
    await page.getByText(`Reads as Northgate Motors Ltd, on ${SENDER}`).waitFor();
    await shot(page, 'misroute-corrected');
    // Only activation 2 was taken back: the later Brandt lesson is still in force.
    const head = await authorityGet(host, '/head');
    const rules = await authorityGet(host, `/rules-in-force?versionId=${encodeURIComponent(head.versionId)}`);
    const described = rules.rules.map(
      (r: { entry: string; describes: string }) => `${r.entry}: ${r.describes}`,
    );
    expect(described.some((d: string) => d.startsWith('brandt:') && d.includes('brandt-partner'))).toBe(true);
    expect(described.some((d: string) => d.startsWith('gulftrade:') && d.includes('billing@origin'))).toBe(
      false,
    );
    expect(described.some((d: string) => d.startsWith('northgate:') && d.includes('billing@origin'))).toBe(
      true,
    );
    const history = await authorityGet(host, '/history');
    expect(history.history.map((a: { action: string }) => a.action).slice(0, 3)).toEqual([
      'teach',
      'revert',
      'teach',
    ]);
  }, 90_000);

  it("never shows one tenant's tasks to another tenant's operator (§13.2)", async () => {
    const host = await hostWithQuestion(hosts);
    await cliIn(host.dataDir, [
      'import',
      'fixtures/directory/demo.json',
      '--tenant',
      'acme',
      '--by',
      'ops@acme.example',
      '--as',
      'ops@acme.example',
    ]);
    const acmeToken = await personToken(host.dataDir, 'acme', 'ops@acme.example', 'read,teach,admin');
    await sendMail(host.url, acmeToken, {
      from: 'desk@acme-shipper.example',
      subject: 'Acme booking 77',
      messageId: 'b77@acme-shipper.example',
    });
    const demoTaskId = (
      (await (
        await fetch(`${host.url}/a2a/jsonrpc`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'A2A-Version': '1.0',
            Authorization: `Bearer ${host.token!}`,
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} }),
        })
      ).json()) as { result: { tasks: { id: string }[] } }
    ).result.tasks[0]!.id;

    const page = await newPage(browser());
    await signIn(page, host.url, acmeToken);
    await page.getByText('Signed in as ops@acme.example (acme)').waitFor();
    await page.getByRole('button', { name: /^Acme booking 77 · from desk@acme-shipper\.example/ }).waitFor();
    expect(await page.getByText('Pre-alert PA-2026-0901', { exact: false }).count()).toBe(0);
    await shot(page, 'tenant-acme-questions');
    // Even by address, the other tenant's task is not there.
    await page.goto(`${host.url}/console/#/task/${demoTaskId}`);
    await page.getByText(/not found/i).waitFor();
    expect(await page.getByText('Pre-alert PA-2026-0901', { exact: false }).count()).toBe(0);
    await shot(page, 'tenant-acme-other-task');
  }, 60_000);
});
