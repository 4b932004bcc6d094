#!/usr/bin/env node
/* global process */
// The kit is TypeScript run by tsx, so an adapter may be a .ts file too.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');
process.exitCode = await main(process.argv.slice(2));
