/**
 * A look inside a zip (an XLSX is one) before any reader unpacks it: the sizes its central directory
 * declares, and then the sizes its parts really inflate to, each inflate capped at what was declared
 * and the whole at `maxInflatedBytes`. A zip bomb (declared huge, or lying small and inflating
 * huge) is found at the cost of `maxInflatedBytes` of inflating, in zlib's thread pool.
 *
 * Owns: the zip structure (end of central directory, central and local headers). Deliberately not:
 * what the parts mean (xlsx-rows.ts), or ZIP64 (a part that needs it is past any sane bound anyway).
 */
import { promisify } from 'node:util';
import { inflateRaw } from 'node:zlib';

const inflateRawAsync = promisify(inflateRaw) as (
  data: Buffer,
  options: { maxOutputLength: number },
) => Promise<Buffer>;

export type ZipVerdict =
  | { readonly kind: 'ok'; readonly inflatedBytes: number }
  | { readonly kind: 'bomb' }
  | { readonly kind: 'broken'; readonly why: string };

const END_OF_DIRECTORY = 0x06054b50;
const CENTRAL_ENTRY = 0x02014b50;
const LOCAL_ENTRY = 0x04034b50;

interface Entry {
  readonly method: number;
  readonly packedBytes: number;
  readonly declaredBytes: number;
  readonly localOffset: number;
}

/** Reads the central directory; a string says why the bytes are not a zip. */
function centralDirectory(zip: Buffer): Entry[] | string {
  const from = Math.max(0, zip.length - (0xffff + 22));
  let end = -1;
  for (let i = zip.length - 22; i >= from; i--) {
    if (zip.readUInt32LE(i) === END_OF_DIRECTORY) {
      end = i;
      break;
    }
  }
  if (end < 0) return 'it has no zip directory: it is cut short or not an XLSX';
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: Entry[] = [];
  for (let n = 0; n < count; n++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== CENTRAL_ENTRY) return 'its zip directory is damaged';
    entries.push({
      method: zip.readUInt16LE(at + 10),
      packedBytes: zip.readUInt32LE(at + 20),
      declaredBytes: zip.readUInt32LE(at + 24),
      localOffset: zip.readUInt32LE(at + 42),
    });
    at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return entries;
}

export async function inspectZip(zip: Buffer, maxInflatedBytes: number): Promise<ZipVerdict> {
  if (zip.length < 22) return { kind: 'broken', why: 'it is too short to be an XLSX' };
  const entries = centralDirectory(zip);
  if (typeof entries === 'string') return { kind: 'broken', why: entries };
  const declared = entries.reduce((sum, e) => sum + e.declaredBytes, 0);
  if (declared > maxInflatedBytes) return { kind: 'bomb' };
  let inflated = 0;
  for (const e of entries) {
    const at = e.localOffset;
    if (at + 30 > zip.length || zip.readUInt32LE(at) !== LOCAL_ENTRY) {
      return { kind: 'broken', why: 'a part named in its zip directory is missing' };
    }
    const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
    const packed = zip.subarray(start, start + e.packedBytes);
    if (e.method === 0) {
      inflated += packed.length;
    } else if (e.method === 8) {
      try {
        // one byte more than declared: a part that inflates past its declaration is lying
        const out = await inflateRawAsync(packed, {
          maxOutputLength: Math.min(e.declaredBytes, maxInflatedBytes - inflated) + 1,
        });
        if (out.length > e.declaredBytes) return { kind: 'bomb' };
        inflated += out.length;
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return { kind: 'bomb' };
        return { kind: 'broken', why: 'a part of it does not unpack' };
      }
    } else {
      return {
        kind: 'broken',
        why: `a part of it is packed with zip method ${e.method}, which XLSX never uses`,
      };
    }
    if (inflated > maxInflatedBytes) return { kind: 'bomb' };
  }
  return { kind: 'ok', inflatedBytes: inflated };
}
