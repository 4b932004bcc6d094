/**
 * §14: removing a personal identifier from text kept in the history (describes, reasons, the
 * stored lesson values). The identifier is matched case-insensitively, both as typed and as it
 * appears once regex-escaped inside a taught value ("dana@origin\.example").
 *
 * Does not own: deciding which versions mention an identifier (each learnable's mentions() does).
 */
import { createHash } from 'node:crypto';

export const ERASED = '[erased]';

const META = new Set([...'\\^$.|?*+()[]{}/-']);

/** A literal, linear-time matcher for the identifier, tolerating a backslash before any regex metacharacter. */
export function identifierMatcher(identifier: string): RegExp {
  let src = '';
  for (const ch of identifier) {
    // Under the 'u' flag only syntax characters and '/' may be escaped; '-' stays bare.
    const lit = ch.replace(/[\\^$.|?*+()[\]{}/]/g, '\\$&');
    src += META.has(ch) ? `\\\\?${lit}` : lit;
  }
  return new RegExp(src, 'giu');
}

export function textMentions(text: string, identifier: string): boolean {
  return identifierMatcher(identifier).test(text);
}

export function scrubText(text: string, identifier: string): string {
  return text.replace(identifierMatcher(identifier), ERASED);
}

/** Scrub every string (keys included) inside a JSON value. */
export function scrubJson(value: unknown, identifier: string): unknown {
  if (typeof value === 'string') return scrubText(value, identifier);
  if (Array.isArray(value)) return value.map((v) => scrubJson(v, identifier));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[scrubText(k, identifier)] = scrubJson(v, identifier);
    return out;
  }
  return value;
}

/**
 * The identifier's UTF-8 bytes as base64 at each of the three byte alignments it can start at
 * inside a longer base64 text (only the characters its bytes alone decide), as typed and
 * lower-cased. A raw mail kept base64 (a file part) or a MIME part in base64 transfer encoding
 * holds it in one of these forms (§14).
 */
function base64Forms(identifier: string): string[] {
  const forms = new Set<string>();
  for (const id of new Set([identifier, identifier.toLowerCase()])) {
    const bytes = Buffer.from(id, 'utf8');
    for (let k = 0; k < 3; k++) {
      const b64 = Buffer.concat([Buffer.alloc(k), bytes]).toString('base64');
      const first = Math.ceil((8 * k) / 6);
      const last = Math.floor((8 * (k + bytes.length) - 6) / 6);
      if (last >= first) forms.add(b64.slice(first, last + 1));
    }
  }
  return [...forms];
}

/** The identifier quoted-printable encoded (RFC 2045), when that differs from the plain form. */
function quotedPrintableForm(identifier: string): string | null {
  let out = '';
  for (const b of Buffer.from(identifier, 'utf8')) {
    out +=
      b === 0x3d || b < 0x20 || b > 0x7e
        ? `=${b.toString(16).toUpperCase().padStart(2, '0')}`
        : String.fromCharCode(b);
  }
  return out === identifier ? null : out;
}

/**
 * Whether `text` holds the identifier plainly, base64-encoded (line breaks ignored) or
 * quoted-printable (soft line breaks ignored): how it can hide inside a raw mail (§14).
 */
export function mentionsEncoded(text: string, identifier: string): boolean {
  if (textMentions(text, identifier)) return true;
  const unwrapped = text.replace(/[\r\n]/g, '');
  if (base64Forms(identifier).some((f) => unwrapped.includes(f))) return true;
  const qp = quotedPrintableForm(identifier);
  return (
    qp !== null &&
    text
      .replace(/=\r?\n/g, '')
      .toUpperCase()
      .includes(qp.toUpperCase())
  );
}

/** A unique key (a Message-ID) that named an erased identifier, as a digest that still keeps it unique. */
export function erasedKey(key: string): string {
  return `erased:${createHash('sha256').update(key).digest('hex')}`;
}
