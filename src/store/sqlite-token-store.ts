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
import { ROLES, type Principal, type Role, type TokenVerifier } from '../domain/authority/principal.ts';
import { systemClock, type Clock } from '../domain/clock.ts';
import { DomainError } from '../domain/errors.ts';
import type { TenantId } from '../domain/tenant.ts';

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

export interface TokenStoreOptions {
  /**
   * How long a verified token is trusted without asking the database again, in ms (default 1000;
   * 0 turns it off). A revocation through this store takes effect at once; one made by another
   * process (the CLI) within this long. Unknown tokens are never remembered.
   */
  readonly verifiedForMs?: number;
  /** Most verified tokens remembered at once (default 1000, the oldest dropped first). */
  readonly maxVerified?: number;
  /** Monotonic milliseconds (tests). Default performance.now. */
  readonly nowMs?: () => number;
}

export function createSqliteTokenStore(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrated database (openDatabase) is untyped
  db: Kysely<any>,
  clock: Clock = systemClock,
  options: TokenStoreOptions = {},
): TokenStore {
  const tokens = db as unknown as Kysely<{ tokens: TokenRow }>;
  const verifiedForMs = options.verifiedForMs ?? 1000;
  const maxVerified = Math.max(1, options.maxVerified ?? 1000);
  const nowMs = options.nowMs ?? (() => performance.now());
  /** Token hash -> the principal it verified as, and when (monotonic ms). */
  const verified = new Map<string, { principal: Principal; atMs: number }>();
  let revocations = 0;

  return {
    async verify(rawToken) {
      if (!rawToken.startsWith(TOKEN_PREFIX) || rawToken.length > 200) return null;
      const hash = hashToken(rawToken);
      const held = verified.get(hash);
      if (held !== undefined) {
        if (nowMs() - held.atMs <= verifiedForMs) return held.principal;
        verified.delete(hash);
      }
      const generation = revocations;
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
      });
      // A revocation that ran while this read was in flight must not be undone by remembering it.
      if (verifiedForMs > 0 && generation === revocations) {
        verified.set(hash, { principal, atMs: nowMs() });
        while (verified.size > maxVerified) verified.delete(verified.keys().next().value!);
      }
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

    async revoke(tenant, id) {
      const result = await tokens
        .updateTable('tokens')
        .set({ revoked_at: clock.now() })
        .where('tenant', '=', tenant)
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      // Rare: forget every remembered verification rather than track which one this was.
      revocations++;
      verified.clear();
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
