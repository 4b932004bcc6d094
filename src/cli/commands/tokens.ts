/**
 * `tokens create | list | revoke`: bearer tokens for the A2A and authority APIs (§13.2). Each token is
 * bound to one tenant and one principal (a person or an application) with roles; it is printed once,
 * at creation, and stored only as its sha256.
 */
import { ROLES, type Role } from '../../domain/authority/index.ts';
import { createSqliteTokenStore, PRINCIPAL_KINDS, type TokenRecord } from '../../store/sqlite-token-store.ts';
import { UsageError, type Command } from '../command.ts';
import { COMMON_USAGE, openKnowledge, parseOptions } from '../knowledge.ts';

export const tokensCommand: Command = {
  name: 'tokens',
  summary: 'create, list or revoke the bearer tokens of a tenant',
  usage: `npx learnables-triage tokens create --principal WHO --kind person|application [--roles read,teach,admin]
       npx learnables-triage tokens list
       npx learnables-triage tokens revoke --id tok_…
  --principal WHO  who holds the token: a person (dana@warehouse.example) or an application (app:preshipment)
  --kind KIND      ${PRINCIPAL_KINDS.join(' | ')}
  --roles LIST     comma-separated, from ${ROLES.join(', ')} (default: read); admin includes the others
  --id ID          the token's id, as \`tokens list\` shows it
${COMMON_USAGE}`,
  async run(args, io) {
    const [sub, ...rest] = args;
    if (sub !== 'create' && sub !== 'list' && sub !== 'revoke') {
      throw new UsageError(
        sub === undefined
          ? 'say what to do: create, list or revoke'
          : `"${sub}" is not one of create, list, revoke`,
      );
    }
    const { values, positionals } = parseOptions(rest, {
      principal: { type: 'string' },
      kind: { type: 'string' },
      roles: { type: 'string' },
      id: { type: 'string' },
    });
    if (positionals.length > (sub === 'revoke' ? 1 : 0))
      throw new UsageError(`unexpected argument "${positionals.at(-1)}"`);
    let create: { principal: string; kind: (typeof PRINCIPAL_KINDS)[number]; roles: Role[] } | null = null;
    if (sub === 'create') {
      if (typeof values.principal !== 'string' || values.principal.trim() === '') {
        throw new UsageError(
          'say who will hold the token with --principal, e.g. --principal dana@warehouse.example',
        );
      }
      const kind = values.kind ?? '';
      if (!(PRINCIPAL_KINDS as readonly string[]).includes(kind)) {
        throw new UsageError(
          `--kind must be one of ${PRINCIPAL_KINDS.join(', ')} (a person, or an application acting for people)`,
        );
      }
      const roles = (values.roles ?? 'read')
        .split(',')
        .map((r) => r.trim())
        .filter((r) => r !== '');
      const unknown = roles.filter((r) => !(ROLES as readonly string[]).includes(r));
      if (unknown.length > 0 || roles.length === 0) {
        throw new UsageError(
          `--roles takes a comma-separated list of ${ROLES.join(', ')}; "${unknown.join(',') || values.roles}" is not usable`,
        );
      }
      create = {
        principal: values.principal,
        kind: kind as (typeof PRINCIPAL_KINDS)[number],
        roles: roles as Role[],
      };
    }
    const id = values.id ?? positionals[0];
    if (sub === 'revoke' && id === undefined)
      throw new UsageError('say which token with --id tok_… (see `tokens list`)');

    const k = await openKnowledge(values, io);
    try {
      const tokens = createSqliteTokenStore(k.db);
      if (create !== null) {
        const { token, record } = await tokens.create({ tenant: k.tenant, ...create });
        if (values.json === true) {
          io.out(JSON.stringify({ token, ...record }, null, 2));
        } else {
          io.out(
            `Created ${record.id} for ${record.principal} (${record.kind}) in tenant ${record.tenant}, roles ${record.roles.join(', ')}.`,
          );
          io.out('The token is shown only now; store it somewhere safe:');
          io.out('');
          io.out(`  ${token}`);
          io.out('');
          io.out('Send it as "Authorization: Bearer <token>".');
        }
        return 0;
      }
      if (sub === 'list') {
        const records = await tokens.list(k.tenant);
        if (values.json === true) io.out(JSON.stringify(records, null, 2));
        else if (records.length === 0) io.out(`Tenant ${k.tenant} has no tokens.`);
        else for (const r of records) io.out(line(r));
        return 0;
      }
      if (await tokens.revoke(k.tenant, id!)) {
        io.out(`Revoked ${id} in tenant ${k.tenant}; it no longer works.`);
        return 0;
      }
      io.err(
        `Tenant ${k.tenant} has no active token "${id}". \`npx learnables-triage tokens list --tenant ${k.tenant}\` shows its tokens.`,
      );
      return 1;
    } finally {
      await k.close();
    }
  },
};

function line(r: TokenRecord): string {
  const state = r.revokedAt === null ? 'active' : `revoked ${r.revokedAt}`;
  return `${r.id}  ${r.principal} (${r.kind})  roles ${r.roles.join(',')}  created ${r.createdAt}  ${state}`;
}
