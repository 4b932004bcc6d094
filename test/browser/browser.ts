/**
 * Browser-test helpers: Debian's chromium driven by playwright-core (no browser download exists
 * here), one browser per test file, a fresh context per test, screenshots into
 * test-results/console/<state>.png, an axe-core check, and signing in as a person would.
 * Deliberately not: how a server starts (test/e2e/host.ts) or asserting on internals.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { startInProcess, type Host } from '../e2e/host.ts';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SHOTS_DIR = join(process.cwd(), 'test-results', 'console');

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `No chromium at ${CHROMIUM_PATH}: the browser tests need Debian's chromium. Install it with ` +
        '`apt-get update && apt-get install -y chromium` (or set CHROMIUM_PATH to a Chromium binary).',
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox', // the tests run as root in CI
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-default-apps',
    ],
  });
}

/** A page in a fresh context, failing fast (10 s) when what a person would see never appears. */
export async function newPage(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  page.setDefaultTimeout(10_000);
  return page;
}

/**
 * The states the README shows, and the file under docs/images each one is (issue 38): the browser
 * tests write them, so the pictures beside the text cannot go stale.
 */
export const README_SHOTS: Readonly<Record<string, string>> = {
  'one-process-question': 'console-question.png',
  'one-process-effect': 'console-effect.png',
  senders: 'console-senders.png',
};
const README_IMAGES = join(process.cwd(), 'docs', 'images');

export async function shot(page: Page, state: string): Promise<void> {
  mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: join(SHOTS_DIR, `${state}.png`), fullPage: true });
  const readme = Object.hasOwn(README_SHOTS, state) ? README_SHOTS[state] : undefined;
  if (readme !== undefined) await page.screenshot({ path: join(README_IMAGES, readme), fullPage: true });
}

/** axe-core finds no serious or critical violation on the page as it is now. */
export async function expectAccessible(page: Page): Promise<void> {
  const result = await new AxeBuilder({ page }).analyze();
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual(
    [],
  );
}

/** Open the console and sign in with a token, as the README tells a newcomer to. */
/** The person the demo application teaches for in these tests. */
export const DANA = 'dana@warehouse.example';

export async function signIn(
  page: Page,
  url: string,
  token: string,
  authority?: { url: string; token: string },
): Promise<void> {
  await page.goto(`${url}/console`);
  await page.getByLabel('Your token').fill(token);
  // The demo token is an application's: it teaches for the person named here (ignored for a person's token).
  await page.getByLabel('Who is teaching').fill(DANA);
  if (authority !== undefined) {
    await page.getByText('The authority runs in another process').click();
    await page.getByLabel('Authority address').fill(authority.url);
    await page.getByLabel('Authority token').fill(authority.token);
  }
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText(/^Signed in as /).waitFor();
}

/** A mail arriving, as an A2A triage_inbound call with the extension activated (a data part). */
export async function sendMail(
  url: string,
  token: string,
  mail: { from: string; subject: string; messageId: string; body?: string },
): Promise<Record<string, unknown>> {
  const res = await fetch(`${url}/a2a/jsonrpc`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'A2A-Version': '1.0',
      'A2A-Extensions': 'https://rsaxb.com/a2a/learnables/v1',
      Authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: {
        message: {
          messageId: `m-${mail.messageId}`,
          role: 'ROLE_USER',
          parts: [
            {
              mediaType: 'application/json',
              data: {
                to: ['imports@warehouse.example'],
                body: 'Please find the manifest attached.',
                ...mail,
              },
            },
          ],
        },
      },
    }),
  });
  const body = (await res.json()) as { result?: { task?: Record<string, unknown> }; error?: unknown };
  if (body.result?.task === undefined) throw new Error(`sendMail: ${JSON.stringify(body)}`);
  return body.result.task;
}

/** One browser for the test file, and the hosts a test started (each closed after its test). */
export function browserTestHooks(): { browser: () => Browser; hosts: Host[] } {
  let browser: Browser | undefined;
  const hosts: Host[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    while (hosts.length > 0) await hosts.pop()!.close();
  });
  return {
    browser: () => {
      if (browser === undefined) throw new Error('browserTestHooks: the browser is not launched yet');
      return browser;
    },
    hosts,
  };
}

/** The first mail of Appendix B: from an address nobody has taught the agent about. */
export const FIRST_MAIL = {
  from: 'billing@origin.example',
  subject: 'Pre-alert PA-2026-0901',
  messageId: 'pa-0901@origin.example',
};

/** The real composition in this process with one question waiting (the first mail); closed by `hosts`. */
export async function hostWithQuestion(hosts: Host[]): Promise<Host> {
  const host = await startInProcess();
  hosts.push(host);
  await sendMail(host.url, host.token!, FIRST_MAIL);
  return host;
}
