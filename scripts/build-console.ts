/**
 * Builds the operator console (console/ -> console/dist) with Vite when the bundle is missing or
 * older than any of its sources; otherwise does nothing (a few milliseconds). `npm start` (prestart)
 * and `npm test` (vitest globalSetup) call it, so the README's two commands serve and test a current
 * console. Measured on the shared 2-core machine: Vite's build itself 0.3 s, the whole
 * `npm run build:console` about 6 s (mostly starting Node, tsx and Vite), 2 s when up to date.
 *
 * Deliberately not: serving the bundle (src/http/console.ts).
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const ROOT = fileURLToPath(new URL('../console', import.meta.url));
const DIST = join(ROOT, 'dist');

function newestMtimeMs(dir: string, skip: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (p === skip || e.name === 'node_modules') continue;
    newest = Math.max(newest, e.isDirectory() ? newestMtimeMs(p, skip) : statSync(p).mtimeMs);
  }
  return newest;
}

function builtMtimeMs(): number {
  try {
    return statSync(join(DIST, 'index.html')).mtimeMs;
  } catch {
    return -1;
  }
}

/** Build when stale; resolves to whether a build ran. */
export async function ensureConsoleBuilt(): Promise<boolean> {
  if (builtMtimeMs() >= newestMtimeMs(ROOT, DIST)) return false;
  await build({ configFile: join(ROOT, 'vite.config.ts'), logLevel: 'warn' });
  return true;
}

/** vitest globalSetup: the browser tests need a current bundle. */
export default async function setup(): Promise<void> {
  await ensureConsoleBuilt();
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = Date.now();
  const built = await ensureConsoleBuilt();
  console.log(built ? `console built in ${Date.now() - started} ms` : 'console is up to date');
}
