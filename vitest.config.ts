import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The browser tests (test/browser) drive the built console: build it first when stale. The
    // store contract suites and the replica tests share one throwaway PostgreSQL cluster per run.
    globalSetup: ['scripts/build-console.ts', 'test/support/postgres.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
