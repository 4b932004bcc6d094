/**
 * §14: removing a personal identifier from text kept in the history (describes, reasons, the
 * stored lesson values). The identifier is matched case-insensitively, both as typed and as it
 * appears once regex-escaped inside a taught value ("dana@origin\.example").
 *
 * Does not own: deciding which versions mention an identifier (each learnable's mentions() does).
 */
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
