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

export function decodeText(bytes: Uint8Array, charset?: string | null): string {
  if (charset !== undefined && charset !== null && charset.trim() !== '') {
    if (ASCII_LABELS.has(charset.trim().toLowerCase()) && !isSevenBit(bytes)) return decodeText(bytes, null);
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
    return new TextDecoder('windows-1252').decode(bytes);
  }
}
