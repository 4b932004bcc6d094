/**
 * A separate process that teaches lessons to a SQLite file, for the concurrency and crash tests.
 * argv: <file> <name> <count|forever> [--wait]. With --wait it prints "ready" and waits for a line on
 * stdin before starting (so several workers start at the same moment). Prints one JSON line per lesson.
 */
import { createInterface } from 'node:readline';
import { tenantId } from '../../../src/domain/tenant.ts';
import { openAuthorityOn } from './open-authority.ts';

const [file, name, countArg] = process.argv.slice(2);
if (file === undefined || name === undefined || countArg === undefined)
  throw new Error('usage: <file> <name> <count|forever> [--wait]');
const wait = process.argv.includes('--wait');
const tenant = tenantId('acme');
const { authority, close } = await openAuthorityOn(file);
// An application writing for dana (a person's token may only write as itself, §13.2).
const teacher = { id: `app:${name}`, kind: 'application' as const, tenant, roles: ['admin' as const] };

if (wait) {
  process.stdout.write('ready\n');
  const rl = createInterface({ input: process.stdin });
  await new Promise<void>((resolve) => rl.once('line', () => resolve()));
  rl.close();
}

const count = countArg === 'forever' ? Number.POSITIVE_INFINITY : Number(countArg);
// The first lesson is the same in every worker (two identical lessons at the same moment).
const shared = {
  collection: 'customers',
  entry: 'northgate',
  // Named, so a lesson for a new entry creates it (issue 12.3: no entry by accident).
  value: { pattern: 'billing@origin\\.example', where: 'from', label: 'Northgate' },
  taughtBy: 'dana@warehouse.example',
};
for (let i = 0; i < count; i++) {
  const lesson =
    i === 0
      ? shared
      : {
          collection: 'customers',
          entry: `c-${name}-${i % 40}`,
          value: { pattern: `ref-${name}-${i}-\\d{4}`, where: 'subject', label: `C ${name} ${i % 40}` },
          taughtBy: `${name}@warehouse.example`,
        };
  const r = await authority.absorb(tenant, teacher, lesson);
  process.stdout.write(
    `${JSON.stringify({ i, learned: r.learned, definitionVersion: r.definitionVersion, versionId: r.versionId })}\n`,
  );
}
await close();
