/**
 * Vite build of the operator console (issue 17): console/index.html and its client modules into
 * console/dist, served by src/http/console.ts at /console. Relative asset URLs, so the bundle works
 * under any mount point. Deliberately not a dev server setup: the real server serves the console.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  logLevel: 'warn',
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: false },
});
