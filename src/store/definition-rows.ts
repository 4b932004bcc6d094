/**
 * The activation row as both engines store it (migrations 001, 006), and its mapping to and from
 * the domain's Activation. Lesson values are opaque JSON text here (§9).
 */
import type { Activation, ActivationAction, WriterKind } from '../domain/definitions/index.ts';

/** Items per IN (...) list or multi-row INSERT, well under every engine's parameter limit. */
export const CHUNK = 500;

export interface ActivationRow {
  tenant: string;
  definition_version: number;
  action: string;
  version_id: string;
  previous_version_id: string | null;
  taught_by: string;
  writer_principal: string;
  writer_kind: string;
  writer_token_id: string | null;
  reason: string | null;
  describes: string;
  collection: string | null;
  entry: string | null;
  value: string | null;
  target: number | null;
  at: string;
}

export function toActivation(r: ActivationRow): Activation {
  return {
    definitionVersion: Number(r.definition_version),
    action: r.action as ActivationAction,
    versionId: r.version_id,
    previousVersionId: r.previous_version_id,
    taughtBy: r.taught_by,
    writer: {
      principal: r.writer_principal,
      kind: r.writer_kind as WriterKind,
      tokenId: r.writer_token_id,
    },
    reason: r.reason,
    describes: r.describes,
    collection: r.collection,
    entry: r.entry,
    value: r.value === null ? null : (JSON.parse(r.value) as Record<string, unknown>),
    target: r.target === null ? null : Number(r.target),
    at: r.at,
  };
}

export function toActivationRow(tenant: string, a: Activation): ActivationRow {
  return {
    tenant,
    definition_version: a.definitionVersion,
    action: a.action,
    version_id: a.versionId,
    previous_version_id: a.previousVersionId,
    taught_by: a.taughtBy,
    writer_principal: a.writer.principal,
    writer_kind: a.writer.kind,
    writer_token_id: a.writer.tokenId,
    reason: a.reason,
    describes: a.describes,
    collection: a.collection,
    entry: a.entry,
    value: a.value === null ? null : JSON.stringify(a.value),
    target: a.target,
    at: a.at,
  };
}

/** A remembered activation is shared by every reader: frozen, so no reader can change another's. */
export function frozen(a: Activation): Activation {
  if (a.value !== null) Object.freeze(a.value);
  Object.freeze(a.writer);
  return Object.freeze(a);
}

export function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
