/**
 * `npm run bench`: runs every benchmark section in order and writes each one's JSON to the output
 * folder (first argument, default `bench-results/`).
 *
 * A section is a module exporting `run(context: BenchContext): Promise<void>`. To add one, either
 * name the file `bench/<name>.bench.ts` (picked up automatically, in name order, after the listed
 * sections) or add it to SECTIONS below. `--only=<name>[,<name>]` runs just those sections.
 * At the end it prints issue 29's cost table against its targets from the folder's JSON
 * (bench/summary.ts); `--summary` prints only that table, running nothing.
 * Speed lives here, never in tests (team brief).
 */
import { mkdirSync, readdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { printSummary } from './summary.ts';

export interface BenchContext {
  /** Folder for the section's JSON results (already created). */
  readonly outDir: string;
  /** The command-line arguments other than the output folder, for the section's own options. */
  readonly args: readonly string[];
}

interface Section {
  readonly name: string;
  readonly file: string;
}

const here = dirname(fileURLToPath(import.meta.url));

/** Sections that run first, in this order. */
const SECTIONS: readonly Section[] = [
  { name: 'matching', file: resolve(here, 'matching.ts') },
  { name: 'server', file: resolve(here, 'server.ts') },
  { name: 'storage', file: resolve(here, 'storage.ts') },
];

function discovered(): Section[] {
  return readdirSync(here)
    .filter((f) => f.endsWith('.bench.ts'))
    .sort()
    .map((f) => ({ name: f.slice(0, -'.bench.ts'.length), file: resolve(here, f) }));
}

async function main(argv: readonly string[]): Promise<void> {
  const positional = argv.filter((a) => !a.startsWith('--'));
  const only = argv
    .find((a) => a.startsWith('--only='))
    ?.slice('--only='.length)
    .split(',');
  const outDir = resolve(positional[0] ?? 'bench-results');
  mkdirSync(outDir, { recursive: true });
  const runStarted = Date.now();
  if (argv.includes('--summary')) {
    printSummary(outDir, runStarted);
    return;
  }
  const sections = [...SECTIONS, ...discovered()].filter((s) => only === undefined || only.includes(s.name));
  for (const section of sections) {
    console.log(`\n=== bench: ${section.name} ===`);
    const started = performance.now();
    const mod = (await import(pathToFileURL(section.file).href)) as {
      run?: (context: BenchContext) => Promise<void>;
    };
    if (typeof mod.run !== 'function')
      throw new Error(`Bench section ${section.file} does not export run(context).`);
    await mod.run({ outDir, args: argv.filter((a) => a !== positional[0]) });
    console.log(`=== ${section.name}: ${((performance.now() - started) / 1000).toFixed(1)} s ===`);
  }
  console.log(`\nResults written to ${outDir}`);
  printSummary(outDir, runStarted);
}

await main(process.argv.slice(2));
