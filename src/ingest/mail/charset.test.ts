// Text attachments decode with their declared charset and fall back to UTF-8, then windows-1252, never failing.
import { describe, expect, it } from 'vitest';
import { decodeText, decodeWindows1252 } from './charset.ts';

describe('decodeText', () => {
  it('honours a declared charset the runtime knows', () => {
    expect(decodeText(Buffer.from([0xe4, 0xf6]), 'iso-8859-1')).toBe('äö');
    expect(decodeText(Buffer.from([0xc7, 0xe1]), 'windows-1256')).toBe('ال');
  });

  it('falls back to UTF-8 for an unknown charset', () => {
    expect(decodeText(Buffer.from('café', 'utf8'), 'x-klingon')).toBe('café');
  });

  it('falls back to windows-1252 when the bytes are not UTF-8', () => {
    expect(decodeText(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x80]), null)).toBe('café €');
  });

  it('does not believe us-ascii for 8-bit bytes', () => {
    expect(decodeText(Buffer.from('Grüße', 'utf8'), 'us-ascii')).toBe('Grüße');
  });

  it('reads a quoted charset label', () => {
    expect(decodeText(Buffer.from([0xe9]), '"ISO-8859-1"')).toBe('é');
  });

  it('maps the windows-1252 C1 range by hand', () => {
    expect(decodeWindows1252(Buffer.from([0x80, 0x93, 0x94, 0x81]))).toBe('\u20ac\u201c\u201d\u0081');
  });
});
