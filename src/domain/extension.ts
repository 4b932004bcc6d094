/** The extension this agent implements (§6.1). The URI is the version (§15). */
export const EXTENSION_URI = 'https://rsaxb.com/a2a/learnables/v1';
/** §12.2 */
export const TEACH_METHOD = 'rsaxb.learnables.Teach';
