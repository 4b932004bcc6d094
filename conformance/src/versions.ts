/**
 * Versions as the kit compares them (§10.3, §10.4). `definitionVersion` is required and monotonic;
 * `versionId` and `previousVersionId` are optional. So two versions are the same when both ids are
 * given and equal, or, where either id is absent, when their definitionVersions are equal.
 */
import type { Wire } from './adapter.ts';

/** What the kit knew of the versions before the first lesson: the parked task's pin, the highest number seen. */
export interface Before {
  readonly pin: VersionRef | undefined;
  readonly highest: number | undefined;
}

/** A version as the agent names it: its content id, its number, or both. */
export interface VersionRef {
  readonly versionId?: string | undefined;
  readonly definitionVersion?: number | undefined;
}

/** A version from what an adapter or a result gives: a versionId string, or an object with either field. */
export function versionRef(value: unknown): VersionRef | undefined {
  if (typeof value === 'string') return value === '' ? undefined : { versionId: value };
  if (value === null || typeof value !== 'object') return undefined;
  const v = value as Wire;
  const ref: VersionRef = {
    versionId: typeof v.versionId === 'string' && v.versionId !== '' ? v.versionId : undefined,
    definitionVersion: Number.isInteger(v.definitionVersion) ? v.definitionVersion : undefined,
  };
  return ref.versionId === undefined && ref.definitionVersion === undefined ? undefined : ref;
}

/** The version a LessonResult's write left active (§10.4). */
export function resultVersion(result: Wire): VersionRef {
  return versionRef(result) ?? {};
}

/** Whether `a` and `b` are one version; undefined when nothing they both give can tell. */
export function sameVersion(a: VersionRef | undefined, b: VersionRef | undefined): boolean | undefined {
  if (a === undefined || b === undefined) return undefined;
  if (a.versionId !== undefined && b.versionId !== undefined) return a.versionId === b.versionId;
  if (a.definitionVersion !== undefined && b.definitionVersion !== undefined)
    return a.definitionVersion === b.definitionVersion;
  return undefined;
}

/** A version in words: `sha256:… (definitionVersion 12)`, or whichever half is known. */
export function named(v: VersionRef | undefined): string {
  if (v === undefined) return 'an unknown version';
  const n = v.definitionVersion === undefined ? '' : `definitionVersion ${v.definitionVersion}`;
  if (v.versionId === undefined) return n;
  return n === '' ? v.versionId : `${v.versionId} (${n})`;
}
