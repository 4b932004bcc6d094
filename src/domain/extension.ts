/** The extension this agent implements (§6.1). The URI is the version (§15). */
export const EXTENSION_URI = 'https://rsaxb.com/a2a/learnables/v1';
/** §12.2 */
export const TEACH_METHOD = 'rsaxb.learnables.Teach';

/**
 * §7: whether a call's extensions name this one: a call context's list (activated or requested), or
 * the values of an `A2A-Extensions` header (comma-separated). The one test every layer asks.
 */
export function namesLearnables(extensions: readonly string[] | string | undefined): boolean {
  if (extensions === undefined) return false;
  const list = typeof extensions === 'string' ? extensions.split(',').map((s) => s.trim()) : extensions;
  return list.includes(EXTENSION_URI);
}
