/**
 * Decoding the bytes of a text-like attachment into a string. A declared charset is honoured when
 * this runtime knows it; otherwise (undeclared, unknown, or bytes that are not valid in it) the bytes
 * are read as UTF-8 when they are valid UTF-8, else as windows-1252 (latin1's superset), which never
 * fails. It does not sniff languages or guess among legacy charsets.
 */
import { TextDecoder } from 'node:util';

/** WHATWG labels with a few common aliases mail clients write. */
const ALIASES: Readonly<Record<string, string>> = {
  utf8: 'utf-8',
  latin1: 'iso-8859-1',
  'iso8859-1': 'iso-8859-1',
  'iso_8859-1': 'iso-8859-1',
  cp1252: 'windows-1252',
  cp1256: 'windows-1256',
  'x-user-defined': 'windows-1252',
};

/** Declared ASCII is often a lie told by a client that then sends UTF-8: only believe it for 7-bit bytes. */
const ASCII_LABELS = new Set(['ascii', 'us-ascii', 'ansi_x3.4-1968']);

function isSevenBit(bytes: Uint8Array): boolean {
  for (const b of bytes) if (b >= 0x80) return false;
  return true;
}

function decoderFor(charset: string, fatal: boolean): TextDecoder | null {
  const label = charset
    .trim()
    .toLowerCase()
    .replace(/^["']|["']$/g, '');
  try {
    return new TextDecoder(ALIASES[label] ?? label, { fatal, ignoreBOM: false });
  } catch {
    return null;
  }
}

/** windows-1252's 0x80-0x9F (undefined bytes stay as their C1 code point), done by hand: some Node versions decode this label as plain latin1. */
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

export function decodeWindows1252(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 8192) {
    const chunk = bytes.subarray(i, i + 8192);
    const chars: string[] = new Array<string>(chunk.length);
    for (let j = 0; j < chunk.length; j++) {
      const b = chunk[j]!;
      chars[j] = b >= 0x80 && b <= 0x9f ? CP1252_HIGH[b - 0x80]! : String.fromCharCode(b);
    }
    out += chars.join('');
  }
  return out;
}

const WINDOWS_1252_LABELS = new Set([
  'windows-1252',
  'cp1252',
  'x-cp1252',
  'iso-8859-1',
  'iso8859-1',
  'iso_8859-1',
  'latin1',
  'l1',
  'x-user-defined',
]);

export function decodeText(bytes: Uint8Array, charset?: string | null): string {
  if (charset !== undefined && charset !== null && charset.trim() !== '') {
    const label = charset.trim().toLowerCase();
    if (ASCII_LABELS.has(label) && !isSevenBit(bytes)) return decodeText(bytes, null);
    // WHATWG reads latin1 labels as windows-1252 too
    if (WINDOWS_1252_LABELS.has(label)) return decodeWindows1252(bytes);
    const declared = decoderFor(charset, true);
    if (declared !== null) {
      try {
        return declared.decode(bytes);
      } catch {
        // bytes are not valid in the declared charset: fall through to the fallbacks
      }
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return decodeWindows1252(bytes);
  }
}
