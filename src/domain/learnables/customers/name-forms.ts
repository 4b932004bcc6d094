/**
 * A customer's name as people write it: the directory says "Maquinaria Monterrey SA",
 * the mail says "the arrival notice for our client Maquinaria Monterrey". The forms of a label are
 * the label itself (full) and the label without its legal form (short), each with `&` written as
 * `and` and the other way round, spacing made single. A short form of one word must be long enough
 * to be a name rather than a word (SHORT_ONE_WORD_CHARS).
 *
 * Owns: legal forms and the forms of a name. Does not own: finding them in a text (label-index.ts).
 */

/**
 * Legal forms, as words at the end of a name (dots and case aside), longest first so "SA de CV" goes
 * before "SA". Stripped repeatedly: "Kowloon Imports Co Ltd" → "Kowloon Imports".
 */
const LEGAL_FORMS: readonly string[] = [
  'gmbh & co kg',
  'sa de cv',
  'sapi de cv',
  's de rl de cv',
  'private limited',
  'pvt ltd',
  'pty ltd',
  '(pty) ltd',
  'sdn bhd',
  'co ltd',
  'fz-llc',
  'fz llc',
  'sp z oo',
  'limited',
  'ltd',
  'plc',
  'gmbh',
  'ag',
  'kg',
  'ohg',
  'sa',
  'sas',
  'sarl',
  'srl',
  'spa',
  'sl',
  'sae',
  'saog',
  'saoc',
  'bv',
  'nv',
  'wll',
  'llc',
  'llp',
  'lp',
  'fze',
  'fzco',
  'fzc',
  'bhd',
  'jsc',
  'pjsc',
  'ojsc',
  'inc',
  'corp',
  'corporation',
  'co',
  'company',
  'ltda',
  'oy',
  'ab',
  'as',
  'a/s',
  'aps',
  'kft',
  'sro',
  'kk',
  'pte',
  'pte ltd',
  'tbk',
  'pt',
];

/** Fewest characters of a short form that is one word ("Gulftrade" of "Gulftrade LLC"). */
export const SHORT_ONE_WORD_CHARS = 6;

/** Words of a name, lower-cased, without the dots and commas legal forms are written with. */
function comparable(words: readonly string[]): string {
  return words.join(' ').toLowerCase().replace(/[.,]/gu, '').replace(/\s+/gu, ' ').trim();
}

const FORMS = new Set(LEGAL_FORMS);
const MAX_FORM_WORDS = Math.max(...LEGAL_FORMS.map((f) => f.split(' ').length));

/** The label without the legal forms at its end, or null when it has none. */
export function withoutLegalForm(label: string): string | null {
  let words = label.trim().split(/\s+/u);
  let stripped = false;
  for (;;) {
    let cut = 0;
    for (let k = Math.min(MAX_FORM_WORDS, words.length - 1); k >= 1 && cut === 0; k--) {
      if (FORMS.has(comparable(words.slice(words.length - k)))) cut = k;
    }
    if (cut === 0) break;
    words = words.slice(0, words.length - cut);
    stripped = true;
  }
  if (!stripped) return null;
  const short = words
    .join(' ')
    .replace(/[\s,&-]+$/u, '')
    .trim();
  if (short.split(' ').length === 1 && short.length < SHORT_ONE_WORD_CHARS) return null;
  return short === '' ? null : short;
}

export interface NameForm {
  /** The form as looked for: single spaces. */
  readonly text: string;
  /** Whether it is the label itself (with `&`/`and` and spacing varied), not a short form. */
  readonly full: boolean;
}

/** The forms of a label a text may name it by, the full ones first, each once (case-insensitively). */
export function nameForms(label: string): NameForm[] {
  const full = label.trim().replace(/\s+/gu, ' ');
  const short = withoutLegalForm(full);
  const out = new Map<string, NameForm>();
  const add = (text: string, isFull: boolean): void => {
    for (const t of [text, ...ampersandVariants(text)]) {
      if (!out.has(t.toLowerCase())) out.set(t.toLowerCase(), { text: t, full: isFull });
    }
  };
  add(full, true);
  if (short !== null) add(short, false);
  return [...out.values()];
}

/** "A & B" as "A and B", and the other way round. */
function ampersandVariants(text: string): string[] {
  const out: string[] = [];
  if (/ & /u.test(text)) out.push(text.replace(/ & /gu, ' and '));
  if (/ and /iu.test(text)) out.push(text.replace(/ and /giu, ' & '));
  return out;
}
