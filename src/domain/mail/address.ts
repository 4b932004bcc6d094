/**
 * The parts of a mail address, by one rule: the domain is what follows the last `@` (a quoted local
 * part may hold an `@` of its own, RFC 5321 §4.1.2; a domain never does).
 */

/** The address's domain, as written; '' when it has no `@`. */
export function domainOf(address: string): string {
  const at = address.lastIndexOf('@');
  return at < 0 ? '' : address.slice(at + 1);
}

/** The address's local part, as written; the whole address when it has no `@`. */
export function localPartOf(address: string): string {
  const at = address.lastIndexOf('@');
  return at < 0 ? address : address.slice(0, at);
}
