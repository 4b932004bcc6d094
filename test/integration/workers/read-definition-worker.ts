/**
 * A separate process that reads one version of a tenant from a SQLite file another process writes,
 * for the names-are-data test (issue 12.3). argv: <file> <tenant> <versionId>. Prints one JSON line:
 * the version's entries as [collection, [[entry name, canonical content], …]] pairs, in map order.
 */
import { canonicalJson } from '../../../src/domain/json.ts';
import { tenantId } from '../../../src/domain/tenant.ts';
import { openAuthorityOn } from './open-authority.ts';

const [file, tenant, versionId] = process.argv.slice(2);
if (file === undefined || tenant === undefined || versionId === undefined)
  throw new Error('usage: <file> <tenant> <versionId>');
const { authority, close } = await openAuthorityOn(file);
const definition = await authority.load(tenantId(tenant), versionId);
const out = [...definition.collections].map(([c, entries]) => [
  c,
  [...entries].map(([name, content]) => [name, canonicalJson(content)]),
]);
process.stdout.write(`${JSON.stringify({ versionId: definition.versionId, collections: out })}\n`);
await close();
