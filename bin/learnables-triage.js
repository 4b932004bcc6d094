#!/usr/bin/env node
/* global process, URL */
// The `learnables-triage` command (package.json "bin"): the operator CLI run from its TypeScript
// source through tsx, so it works right after `npm ci`, with no build step (`npx learnables-triage …`).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
const tsx = import.meta.resolve('tsx');
const run = spawnSync(process.execPath, ['--import', tsx, cli, ...process.argv.slice(2)], {
  stdio: 'inherit',
});
process.exit(run.status ?? 1);
