/**
 * GET /authority/v1/entries?collection=<name>&q=<text>&limit=<n>: the entries of one collection in
 * the active definition, by name and by the label its learnable gives it (the label readings use,
 * §11), filtered by `q` (case-insensitive, on name or label) and capped at `limit` (default 50, at
 * most 500). Read-only, `read` role, tenant from the token (§13.2). It lets a client show entries
 * by their labels and search a directory of 10,000 without fetching every entry's content.
 *
 * Deliberately not: reading an entry's content (the learnable's `label` does, §9), or writing.
 */
import express, { type Router } from 'express';
import type { Authority, TokenVerifier } from '../domain/authority/index.ts';
import { DomainError } from '../domain/errors.ts';
import type { EntryContent, Learnable } from '../domain/learnables/index.ts';
import { bearerAuth, principalOf, requireRole } from './auth.ts';

/** Where the router is mounted (inside the authority API's path, before its own router). */
export const ENTRIES_PATH = '/authority/v1/entries';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 500;

export interface EntriesApiDeps {
  readonly authority: Pick<Authority, 'active'>;
  readonly verifier: TokenVerifier;
  readonly learnables: readonly Pick<Learnable, 'collection' | 'label'>[];
}

export interface WireEntry {
  readonly name: string;
  readonly label: string;
}

export function createEntriesRouter(deps: EntriesApiDeps): Router {
  const router = express.Router();
  router.get('/', bearerAuth(deps.verifier), requireRole('read'), async (req, res) => {
    const p = principalOf(res);
    const collection = typeof req.query.collection === 'string' ? req.query.collection : '';
    const learnable = deps.learnables.find((l) => l.collection === collection);
    if (learnable === undefined) {
      throw new DomainError(
        'COLLECTION_UNKNOWN',
        `There is no collection "${collection}" here. Name one the agent card declares: ${deps.learnables.map((l) => l.collection).join(', ')}.`,
        { details: { fields: ['collection'] } },
      );
    }
    const limit = limitOf(req.query.limit);
    const q = typeof req.query.q === 'string' ? req.query.q.trim().toLowerCase() : '';
    const active = await deps.authority.active(p.tenant);
    const entries = active.definition.collections.get(collection) ?? new Map<string, EntryContent>();
    const out: WireEntry[] = [];
    let total = 0;
    for (const [name, content] of entries) {
      const label = learnable.label === undefined ? name : learnable.label(name, content);
      if (q !== '' && !name.toLowerCase().includes(q) && !label.toLowerCase().includes(q)) continue;
      total += 1;
      if (out.length < limit) out.push({ name, label });
    }
    res.setHeader('Cache-Control', 'no-store');
    res.json({ collection, definitionVersion: active.definitionVersion, total, entries: out });
  });
  return router;
}

function limitOf(v: unknown): number {
  if (v === undefined) return DEFAULT_LIMIT;
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_LIMIT) {
    throw new DomainError('REQUEST_MALFORMED', `?limit= must be a whole number from 1 to ${MAX_LIMIT}.`, {
      details: { fields: ['limit'] },
    });
  }
  return n;
}
