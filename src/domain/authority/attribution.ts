/**
 * Attribution (§9 taughtBy, §13.2, §13.4): who wrote an activation and for whom.
 *
 * Owns: the writer recorded from an authenticated principal; the rule that a person may only write
 * as themself; and the provenance id stamped into what a lesson adds when an application (or an
 * operator at the CLI) writes on a person's behalf, so every reading of that rule, in any process,
 * says both: "dana@warehouse.example, via app:preshipment".
 *
 * A person's identity is compared the way the people table keys handles (trimmed, case-insensitive):
 * a person token's principal is that person's handle ("dana@warehouse.example"), and `taughtBy`
 * must name the same handle.
 *
 * Deliberately does not: look people up (the store does), or decide roles (principal.ts).
 */
import type { Writer } from '../definitions/index.ts';
import { DomainError } from '../errors.ts';
import type { Principal } from './principal.ts';

/** Separates the person id from the writing principal in a provenance id; never in a person id. */
const VIA = ';via=';

/** The writer an activation records for `principal` (§13.4). */
export function writerOf(principal: Principal): Writer {
  return Object.freeze({
    principal: principal.id,
    kind: principal.kind,
    tokenId: principal.tokenId ?? null,
  });
}

/** How people handles are compared (the same key the people table uses). */
export function handleKey(handle: string): string {
  return handle.trim().toLowerCase();
}

/**
 * §13.2: a person token writes only as itself. Throws FORBIDDEN naming both and what to do when a
 * person's token names somebody else in `taughtBy`.
 */
export function checkWritesAsItself(principal: Principal, taughtBy: string): void {
  if (principal.kind !== 'person' || handleKey(taughtBy) === handleKey(principal.id)) return;
  throw new DomainError(
    'FORBIDDEN',
    `This token belongs to ${principal.id}; it cannot write as ${taughtBy}. Sign in as ${taughtBy}, or send taughtBy "${principal.id}".`,
    { details: { fields: ['taughtBy'], principal: principal.id, taughtBy } },
  );
}

/**
 * The provenance id a lesson stamps into what it adds: the person's stable id, and, when an
 * application or an operator wrote it for them, which one (§13.4).
 */
export function provenanceId(personId: string, taughtBy: string, principal: Principal): string {
  const onBehalf =
    (principal.kind === 'application' || principal.kind === 'operator') &&
    handleKey(principal.id) !== handleKey(taughtBy);
  return onBehalf ? `${personId}${VIA}${encodeURIComponent(principal.id)}` : personId;
}

/** A provenance id split back into the person's stable id and the principal it came via (or null). */
export function parseProvenanceId(id: string): { readonly personId: string; readonly via: string | null } {
  const at = id.indexOf(VIA);
  if (at < 0) return { personId: id, via: null };
  let via: string;
  try {
    via = decodeURIComponent(id.slice(at + VIA.length));
  } catch {
    via = id.slice(at + VIA.length);
  }
  return { personId: id.slice(0, at), via };
}

/**
 * A provenance id in words for readings and rules: the person's handle ("[erased]" once forgotten,
 * §14), then ", via <principal>" when one wrote for them. `handleOf` resolves a plain person id.
 */
export async function displayProvenance(
  id: string,
  handleOf: (personId: string) => Promise<string | null>,
): Promise<string | null> {
  const { personId, via } = parseProvenanceId(id);
  const handle = await handleOf(personId);
  if (via === null) return handle;
  return `${handle ?? '[erased]'}, via ${via}`;
}
