/**
 * Regex mark shapes for the analysis tests: everyday syntax (what lean-parse.ts reads) and its
 * edges, each a different path through the parser and the analysis.
 */
export const EVERYDAY_PATTERNS: readonly string[] = [
  'norgate\\s+motors',
  '[a-z0-9._-]+@(?:[a-z0-9-]+\\.)*dom\\.example',
  '(?:inv|invoice)[\\s#:-]*123\\d{3}',
  'word[_-]?statement[_-]?\\d{4,8}\\.pdf',
  '^PA-\\d{4}-\\d{4}$',
  '\\bnorgate\\b',
  'a{2,}?b{0,1}c{3}',
  '[^\\s@]+@x\\.io',
  '[\\w-]+\\/[\\]\\[\\-]',
  'müller|😀x',
  '[\\b\\t\\n\\v\\f\\r]',
  '()',
  '[]x[^]',
  '',
];
