/**
 * Content addressing for definition versions (§10.3): every object (an entry's content, a tree
 * node, a version root) is stored as canonical JSON under the sha256 of that text, so equal
 * content always has the same address and unchanged parts are shared between versions.
 *
 * Does not own: what an entry's content means (its learnable does), nor where objects live (the store).
 */
import { createHash } from 'node:crypto';
import { DomainError } from '../errors.ts';
import type { VersionId } from './definition.ts';

const VERSION_PREFIX = 'sha256:';
const HEX64 = /^[0-9a-f]{64}$/;

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** `sha256:<root hash>`, the versionId of a version whose root object hashes to `rootHash`. */
export function versionIdOf(rootHash: string): VersionId {
  return `${VERSION_PREFIX}${rootHash}`;
}

export function isVersionId(raw: unknown): raw is VersionId {
  return (
    typeof raw === 'string' && raw.startsWith(VERSION_PREFIX) && HEX64.test(raw.slice(VERSION_PREFIX.length))
  );
}

/** The root object's hash behind a versionId; throws DEFINITION_VERSION_NOT_FOUND for a malformed id. */
export function rootHashOf(versionId: VersionId): string {
  if (!isVersionId(versionId)) {
    throw new DomainError(
      'DEFINITION_VERSION_NOT_FOUND',
      `"${String(versionId)}" is not a version id: a version id is "sha256:" followed by 64 lower-case hex digits, as shown by the history.`,
    );
  }
  return versionId.slice(VERSION_PREFIX.length);
}
