// Invariant: the console renders lesson fields blind (§6.3): its source holds no string of any one learnable, and a card it has never seen (an invented learnable, an invented field kind, an unknown decidedBy) is rendered from the declaration alone: a select for choice with its default, a text box for text and for the unknown kind (never dropped, never an error), prefilled from suggested (§8), and the lesson posted carries exactly the declared names (§9).
/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON is read loosely; the assertions check its shape */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import express from 'express';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleRouter } from '../../src/http/console.ts';
import { expectAccessible, launchBrowser, newPage, shot, signIn } from './browser.ts';

const EXT = 'https://rsaxb.com/a2a/learnables/v1';

/** The strings of the learnables this server ships (§6.3: none may appear in a conformant client). */
const ONE_LEARNABLES_STRINGS = [
  'pattern',
  'where',
  'column',
  'cue',
  'Text that gives it away',
  'customers',
  'kinds',
  'mappings',
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (name === 'dist' || name === 'node_modules') return [];
    return statSync(p).isDirectory() ? sourceFiles(p) : [p];
  });
}

const LEARNABLE = {
  collection: 'tariff-lines',
  entry: 'tariff line',
  teaches: 'which tariff line a product falls under',
  how: 'A lookup of harmonised codes, checked by a customs broker once a week.',
  decidedBy: 'oracle',
  lessonFields: [
    { name: 'hs', label: 'Harmonised code', kind: 'digits-with-dots', help: 'Six digits at least.' },
    {
      name: 'scope',
      label: 'Applies to',
      kind: 'choice',
      choices: ['import', 'export', 'both'],
      default: 'both',
    },
    { name: 'swatch', label: 'Swatch colour', kind: 'colour-wheel' },
  ],
};

const TASK = {
  id: 'task-tariff-1',
  contextId: 'ctx-1',
  status: {
    state: 'TASK_STATE_INPUT_REQUIRED',
    timestamp: '2026-12-01T10:00:00.000Z',
    message: {
      messageId: 'q-1',
      role: 'ROLE_AGENT',
      parts: [{ text: 'Which tariff line is this product?' }],
      metadata: {
        [EXT]: {
          teach: {
            collection: 'tariff-lines',
            entries: ['ch87', 'ch84'],
            suggested: { hs: '8703.23' },
            suggestionLabel: 'the product line of the invoice',
            lessonFields: LEARNABLE.lessonFields,
          },
        },
      },
    },
  },
  history: [
    {
      messageId: 'u-1',
      role: 'ROLE_USER',
      parts: [{ data: { from: 'broker@cargo.example', subject: 'Invoice 4411', body: 'Two sedans.' } }],
    },
  ],
  metadata: { [EXT]: { skill: 'triage_inbound' } },
};

let browser: Browser;
let server: Server;
let url = '';
const posted: unknown[] = [];
beforeAll(async () => {
  browser = await launchBrowser();
  // A tiny agent and authority with a card the console has never seen; the console itself is the real router.
  const app = express();
  app.use(express.json());
  app.use('/console', consoleRouter());
  app.get('/.well-known/agent-card.json', (_req, res) => {
    res.json({
      name: 'Tariff agent',
      supportedInterfaces: [
        { url: 'http://tariffs.invalid/a2a/jsonrpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      ],
      capabilities: { extensions: [{ uri: EXT, required: false, params: { learnables: [LEARNABLE] } }] },
    });
  });
  app.get('/authority/v1/whoami', (_req, res) => {
    res.json({ tenant: 'customs', principal: 'ines@broker.example', kind: 'person', roles: ['teach'] });
  });
  app.post('/authority/v1/lessons', (req, res) => {
    posted.push(req.body);
    res.json({ learned: true, describes: 'files 8703.23 under ch87', definitionVersion: 2 });
  });
  app.post('/a2a/jsonrpc', (req, res) => {
    const { id, method, params } = req.body as { id: number; method: string; params: Record<string, any> };
    let result: unknown;
    if (method === 'ListTasks') result = { tasks: [TASK] };
    else if (method === 'GetTask') result = TASK;
    else if (params.message?.taskId === TASK.id) {
      result = {
        task: {
          ...TASK,
          status: { state: 'TASK_STATE_COMPLETED', message: { parts: [{ text: 'Filed under ch87.' }] } },
        },
      };
    } else {
      result = {
        task: {
          id: 'recheck-1',
          status: { state: 'TASK_STATE_COMPLETED' },
          artifacts: [
            {
              parts: [
                {
                  data: {
                    line: {
                      collection: 'tariff-lines',
                      settled: true,
                      winner: 'ch87',
                      reads: 'Falls under Chapter 87, on 8703.23',
                      candidates: [],
                    },
                  },
                },
              ],
            },
          ],
        },
      };
    }
    res.json({ jsonrpc: '2.0', id, result });
  });
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
});

describe('blind rendering (§6.3)', () => {
  it("holds none of one learnable's strings in the console source", () => {
    const files = sourceFiles(join(process.cwd(), 'console'));
    expect(files.length).toBeGreaterThan(3);
    const found = files.flatMap((f) => {
      const text = readFileSync(f, 'utf8').toLowerCase();
      return ONE_LEARNABLES_STRINGS.filter((s) => text.includes(s.toLowerCase())).map((s) => `${f}: ${s}`);
    });
    expect(found).toEqual([]);
  });

  it('renders an invented learnable with an invented kind from the card alone, and posts the declared names', async () => {
    const page = await newPage(browser);
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await signIn(page, url, 'any-token');
    await page.getByRole('link', { name: 'How it decides' }).click();
    await page.getByRole('heading', { name: 'Teaches which tariff line a product falls under' }).waitFor();
    await page.getByText('A lookup of harmonised codes, checked by a customs broker once a week.').waitFor();
    await page
      .getByText(
        'The agent says it decides by "oracle"; the console promises nothing about a lesson\'s effect.',
      )
      .waitFor();
    await page.getByText('Swatch colour (colour-wheel)').waitFor();
    await shot(page, 'invented-card-how-it-decides');

    await page.getByRole('link', { name: 'Questions' }).click();
    await page.getByRole('button', { name: 'Invoice 4411 · from broker@cargo.example' }).click();
    // The unknown kinds are text boxes, labelled as declared; the known choice is a select with its default.
    const code = page.getByRole('textbox', { name: 'Harmonised code' });
    await expect.poll(() => code.inputValue()).toBe('8703.23');
    await page.getByText('Suggested from the product line of the invoice.').waitFor();
    const swatch = page.getByRole('textbox', { name: 'Swatch colour' });
    expect(await swatch.inputValue()).toBe('');
    expect(await page.getByRole('combobox', { name: 'Applies to' }).inputValue()).toBe('both');
    await swatch.fill('teal');
    await page.getByLabel('Which tariff line').selectOption('ch87');
    await page.getByLabel('Why (kept in the history)').fill('the broker confirmed it');
    await shot(page, 'invented-card-question');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Answer' }).click();
    await page.getByText('Falls under Chapter 87, on 8703.23').waitFor();
    await shot(page, 'invented-card-effect');
    expect(posted).toEqual([
      {
        collection: 'tariff-lines',
        entry: 'ch87',
        value: { hs: '8703.23', scope: 'both', swatch: 'teal' },
        taughtBy: 'ines@broker.example',
        reason: 'the broker confirmed it',
      },
    ]);
    expect(pageErrors).toEqual([]);
  }, 60_000);
});
