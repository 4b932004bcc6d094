/**
 * Bearer tokens on SQLite (§13.2): each bound to one tenant and one principal (a person or an
 * application) with roles. Only the sha256 of a token is stored; the raw token is returned once, by
 * `create`, and never again. Implements the domain's TokenVerifier port.
 *
 * Deliberately does not: decide what a role permits (src/domain/authority/principal.ts, src/http/auth.ts),
 * or print tokens (the CLI and main do, once).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ROLES, type Principal, type Role, type TokenVerifier } from '../domain/authority/index.ts';
import { systemClock, type Clock } from '../domain/clock.ts';
import { DomainError } from '../domain/errors.ts';
import type { TenantId } from '../domain/tenant.ts';
import { currentGeneration, RememberedReads, writing } from './read-validity.ts';

export const PRINCIPAL_KINDS = [
  'person',
  'application',
  'service',
] as const satisfies readonly Principal['kind'][];

/** A token as listed: everything but the secret. */
export interface TokenRecord {
  /** Public handle, e.g. "tok_3f9a0c1b2d4e"; use it to revoke. */
  readonly id: string;
  readonly tenant: TenantId;
  readonly principal: string;
  readonly kind: Principal['kind'];
  readonly roles: readonly Role[];
  readonly createdAt: string;
  readonly revokedAt: string | null;
}

export interface CreateTokenInput {
  readonly tenant: TenantId;
  /** Who holds it: a person's handle ("dana@warehouse.example") or an application id ("app:preshipment"). */
  readonly principal: string;
  readonly kind: Principal['kind'];
  readonly roles: readonly Role[];
}

export interface TokenStore extends TokenVerifier {
  /** Creates a token; `token` is the only time the raw secret exists outside the caller. */
  create(input: CreateTokenInput): Promise<{ token: string; record: TokenRecord }>;
  /** The tenant's tokens, oldest first, revoked ones included (marked). */
  list(tenant: TenantId): Promise<TokenRecord[]>;
  /** Revokes a token of this tenant; false when the tenant has no such (unrevoked) token. */
  revoke(tenant: TenantId, id: string): Promise<boolean>;
  /**
   * §9: whether `name` holds (or held) a token of this tenant as an application or a service, so a
   * lesson naming it in taughtBy names a service account, not a person. Compared trimmed and
   * case-insensitively.
   */
  isServiceAccount(tenant: TenantId, name: string): Promise<boolean>;
}

interface TokenRow {
  id: string;
  tenant: string;
  principal: string;
  kind: string;
  roles: string;
  token_hash: string;
  created_at: string;
  revoked_at: string | null;
}

const TOKEN_PREFIX = 'lt_';

export function hashToken(raw: string): string {
  return createHash('sha256').update(raw, 'utf8').digest('hex');
}

/** Most verified tokens remembered per connection (the oldest dropped first). */
const MAX_VERIFIED = 1_000;

export function createSqliteTokenStore(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrated database (openDatabase) is untyped
  db: Kysely<any>,
  clock: Clock = systemClock,
): TokenStore {
  const tokens = db as unknown as Kysely<{ tokens: TokenRow }>;
  // Every A2A call verifies its token: a verified one is remembered, exactly (read-validity.ts): a
  // revocation through this connection or by another process (the CLI) is seen by the next call.
  // Unknown tokens are never remembered.
  const verified = new RememberedReads<Principal>(db, MAX_VERIFIED);

  return {
    async verify(rawToken) {
      if (!rawToken.startsWith(TOKEN_PREFIX) || rawToken.length > 200) return null;
      const hash = hashToken(rawToken);
      const generation = await currentGeneration(db);
      if (verified.has(hash, generation)) return verified.get(hash)!;
      const row = await tokens
        .selectFrom('tokens')
        .selectAll()
        .where('token_hash', '=', hash)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (row === undefined) return null;
      const record = toRecord(row);
      const principal: Principal = Object.freeze({
        id: record.principal,
        kind: record.kind,
        tenant: record.tenant,
        roles: record.roles,
        // §13.4: the token is recorded as the writer of whatever it writes.
        tokenId: record.id,
      });
      verified.set(hash, principal, generation);
      return principal;
    },

    async create(input) {
      const problems = checkInput(input);
      if (problems.length > 0) {
        throw new DomainError('REQUEST_MALFORMED', `Cannot create the token: ${problems.join('; ')}.`);
      }
      const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
      const row: TokenRow = {
        id: `tok_${randomBytes(6).toString('hex')}`,
        tenant: input.tenant,
        principal: input.principal.trim(),
        kind: input.kind,
        roles: [...new Set(input.roles)].join(','),
        token_hash: hashToken(token),
        created_at: clock.now(),
        revoked_at: null,
      };
      await tokens.insertInto('tokens').values(row).execute();
      return { token, record: toRecord(row) };
    },

    async list(tenant) {
      const rows = await tokens
        .selectFrom('tokens')
        .selectAll()
        .where('tenant', '=', tenant)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toRecord);
    },

    async isServiceAccount(tenant, name) {
      const key = name.trim().toLowerCase();
      const rows = await tokens
        .selectFrom('tokens')
        .select(['principal', 'kind'])
        .where('tenant', '=', tenant)
        .where('kind', '!=', 'person')
        .execute();
      return rows.some((r) => r.principal.trim().toLowerCase() === key);
    },

    async revoke(tenant, id) {
      const result = await writing(db, () =>
        tokens
          .updateTable('tokens')
          .set({ revoked_at: clock.now() })
          .where('tenant', '=', tenant)
          .where('id', '=', id)
          .where('revoked_at', 'is', null)
          .executeTakeFirst(),
      );
      return Number(result.numUpdatedRows) > 0;
    },
  };
}

function checkInput(input: CreateTokenInput): string[] {
  const problems: string[] = [];
  if (input.principal.trim() === '') problems.push('name who holds it (--principal dana@warehouse.example)');
  if (!(PRINCIPAL_KINDS as readonly string[]).includes(input.kind)) {
    problems.push(`--kind "${input.kind}" is not one of ${PRINCIPAL_KINDS.join(', ')}`);
  }
  if (input.roles.length === 0) problems.push(`give it at least one role (--roles ${ROLES.join(',')})`);
  for (const r of input.roles) {
    if (!(ROLES as readonly string[]).includes(r))
      problems.push(`role "${r}" is not one of ${ROLES.join(', ')}`);
  }
  return problems;
}

function toRecord(row: TokenRow): TokenRecord {
  return Object.freeze({
    id: row.id,
    tenant: row.tenant as TenantId,
    principal: row.principal,
    kind: row.kind as Principal['kind'],
    roles: Object.freeze(
      row.roles.split(',').filter((r): r is Role => (ROLES as readonly string[]).includes(r)),
    ),
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  });
}
