/**
 * HTML to plain text for mail bodies and HTML attachments. html-to-text does the work for ordinary
 * mail: no line wrapping (a wrapped line would split a name a mark looks for), table cells kept apart,
 * links as their text, images dropped. Its tree walk grows faster than linearly with nesting depth
 * (100,000 nested elements took 24 s), so HTML nested deeper than MAX_NESTING_DEPTH, checked in one
 * linear pass, is read by a linear tag stripper instead: plainer text, but never a stalled event loop.
 */
import { convert } from 'html-to-text';

const MAX_NESTING_DEPTH = 400;

/** Elements that never nest: void elements, and those whose end tag HTML lets writers leave out. */
const NON_NESTING = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
  'p',
  'li',
  'td',
  'th',
  'tr',
  'option',
  'dt',
  'dd',
  'tbody',
  'thead',
  'tfoot',
]);

const TAG = /<(\/?)([a-zA-Z][\w:-]*)[^>]*?(\/?)>/g;

/** Whether open elements nest deeper than maxDepth, in one pass over the tags. */
export function nestsDeeperThan(html: string, maxDepth: number): boolean {
  let depth = 0;
  for (const m of html.matchAll(TAG)) {
    const name = m[2]!.toLowerCase();
    if (NON_NESTING.has(name) || m[3] === '/') continue;
    if (m[1] === '/') depth = Math.max(0, depth - 1);
    else if (++depth > maxDepth) return true;
  }
  return false;
}

const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,8});/gi, (whole, e: string) => {
    if (e.startsWith('#')) {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[e.toLowerCase()] ?? whole;
  });
}

/** A linear fallback: block ends become line breaks, cells tabs, other tags spaces. */
export function stripTags(html: string): string {
  return decodeEntities(
    html
      .replace(/<(script|style|head)\b[^]*?<\/\1\s*>/gi, ' ')
      .replace(/<!--[^]*?-->/g, ' ')
      .replace(/<\/?(?:br|p|div|tr|li|h[1-6]|table|blockquote|section|article)\b[^>]*>/gi, '\n')
      .replace(/<\/t[dh]\s*>/gi, '\t')
      .replace(/<[^>]*>/g, ' '),
  )
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export function htmlToText(html: string, maxInputChars: number): string {
  if (nestsDeeperThan(html, MAX_NESTING_DEPTH)) return stripTags(html.slice(0, maxInputChars));
  return convert(html, {
    wordwrap: false,
    limits: { maxInputLength: maxInputChars, maxDepth: MAX_NESTING_DEPTH + 100, maxChildNodes: 100_000 },
    selectors: [
      { selector: 'a', options: { ignoreHref: true } },
      { selector: 'img', format: 'skip' },
      {
        selector: 'table',
        format: 'dataTable',
        options: { uppercaseHeaderCells: false, maxColumnWidth: 1000 },
      },
    ],
  });
}
