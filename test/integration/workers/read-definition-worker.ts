/**
 * A separate process that reads one version of a tenant from a SQLite file another process writes,
 * for the names-are-data test (issue 12.3). argv: <file> <tenant> <versionId>. Prints one JSON line:
 * the version's entries as [collection, [[entry name, canonical content], …]] pairs, in map order.
 */
import { createAuthority } from '../../../src/domain/authority/create-authority.ts';
import { systemClock } from '../../../src/domain/clock.ts';
import { canonicalJson } from '../../../src/domain/json.ts';
import { createLearnables } from '../../../src/domain/learnables/registry.ts';
import { tenantId } from '../../../src/domain/tenant.ts';
import { openDatabase } from '../../../src/store/database.ts';
import { createSqliteDefinitionStore } from '../../../src/store/sqlite-definition-store.ts';

const [file, tenant, versionId] = process.argv.slice(2);
if (file === undefined || tenant === undefined || versionId === undefined)
  throw new Error('usage: <file> <tenant> <versionId>');
const db = await openDatabase({ file });
const authority = createAuthority({
  store: createSqliteDefinitionStore(db),
  learnables: createLearnables(),
  settings: { identificationMargin: 0.5 },
  clock: systemClock,
});
const definition = await authority.load(tenantId(tenant), versionId);
const out = [...definition.collections].map(([c, entries]) => [
  c,
  [...entries].map(([name, content]) => [name, canonicalJson(content)]),
]);
process.stdout.write(`${JSON.stringify({ versionId: definition.versionId, collections: out })}\n`);
await db.destroy();
