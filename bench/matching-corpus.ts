/**
 * Seeded synthetic marks and messages for the matching benchmark and the matcher's equivalence test.
 *
 * Marks follow the mix of ../shared/notes/mark-matching-performance.md: 70% literals (addresses,
 * domains, references like PA-2026-0901, company names, a few non-ASCII names) and 30% small
 * regexes (`XYZ-20\d{2}-\d{4}`, `word\s+motors`, `(?:inv|invoice)[\s#:-]*123\d{3}`, address
 * patterns, `\bword\b`, `word[_-]?statement[_-]?\d{4,8}\.pdf`), each scoped to one part or to all.
 * Messages are full of near misses (one character off, a digit changed, a prefix cut), with a few
 * real hits, odd case (Kelvin sign, long s), non-ASCII text and astral characters. Nothing here is
 * product code.
 */
import type { MailMessage, MailPart } from '../src/domain/mail/index.ts';
import type { Mark } from '../src/domain/matching/index.ts';

export type Random = () => number;

/** mulberry32: a small, fast, seeded PRNG in [0, 1). */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(rnd: Random, list: readonly T[]): T => list[Math.floor(rnd() * list.length)] as T;
const int = (rnd: Random, lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));
const digits = (rnd: Random, n: number): string =>
  Array.from({ length: n }, () => String(int(rnd, 0, 9))).join('');
const letters = (rnd: Random, n: number): string =>
  Array.from({ length: n }, () => String.fromCharCode(97 + int(rnd, 0, 25))).join('');

const SYLLABLES =
  'nor th gate gulf trade mo tor sea land ship port ex ka ri ve lo pa ne sto ber gan fal con cre st ar den mil ta ru ko zen vi ol am bra'.split(
    ' ',
  );
const TLDS = ['example', 'test', 'invalid'];
const WHERE: readonly (readonly MailPart[])[] = [
  ['from'],
  ['subject'],
  ['body'],
  ['attachments'],
  ['from', 'subject', 'body', 'attachments'],
];

function word(rnd: Random): string {
  return Array.from({ length: int(rnd, 2, 3) }, () => pick(rnd, SYLLABLES)).join('');
}

const escapeRe = (s: string): string => s.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');

/** A synthetic mark with one string it matches (for real hits) and a way to make near misses. */
export interface SyntheticMark extends Mark {
  readonly collection: string;
  readonly entry: string;
  readonly mark: string;
  readonly where: string;
  readonly provenance: { readonly activation: number; readonly taughtBy: string; readonly at: string };
  /** A string the mark matches. */
  readonly sample: string;
}

const PROVENANCE = { activation: 1, taughtBy: 'bench', at: '2026-01-01T00:00:00.000Z' } as const;

/** `count` seeded marks in the study's mix (70% literals, 30% small regexes). */
export function syntheticMarks(count: number, seed: number): SyntheticMark[] {
  const rnd = seededRandom(seed);
  const marks: SyntheticMark[] = [];
  for (let i = 0; i < count; i++) {
    const [source, sample] = rnd() < 0.7 ? literalMark(rnd) : regexMark(rnd);
    const parts = pick(rnd, WHERE);
    marks.push({
      collection: 'customers',
      entry: `c${i % Math.max(1, Math.floor(count / 3))}`,
      source,
      sample,
      parts,
      mark: source,
      where: parts.length === 1 ? (parts[0] as string) : 'any',
      provenance: PROVENANCE,
    });
  }
  return marks;
}

function literalMark(rnd: Random): [string, string] {
  const r = rnd();
  let text: string;
  if (r < 0.3)
    text = `${pick(rnd, ['billing', 'ops', 'info', 'desk', word(rnd)])}@${word(rnd)}.${pick(rnd, TLDS)}`;
  else if (r < 0.45) text = `${word(rnd)}.${pick(rnd, TLDS)}`;
  else if (r < 0.7) text = `${letters(rnd, 2).toUpperCase()}-20${digits(rnd, 2)}-${digits(rnd, 4)}`;
  else if (r < 0.95)
    text = `${cap(word(rnd))} ${pick(rnd, ['Motors', 'Freight', 'Logistics', 'Trading', 'Ltd'])}`;
  else text = `${cap(word(rnd))} ${pick(rnd, ['Müller', 'Spedição', 'Łódź', 'Øresund'])}`;
  return [escapeRe(text), text];
}

function regexMark(rnd: Random): [string, string] {
  const w = word(rnd);
  switch (int(rnd, 0, 5)) {
    case 0: {
      const p = letters(rnd, 3).toUpperCase();
      return [`${p}-20\\d{2}-\\d{4}`, `${p}-20${digits(rnd, 2)}-${digits(rnd, 4)}`];
    }
    case 1: {
      const v = pick(rnd, ['motors', 'freight', 'cargo', word(rnd)]);
      return [`${w}\\s+${v}`, `${w}  ${v}`];
    }
    case 2: {
      const d = digits(rnd, 3);
      return [`(?:inv|invoice)[\\s#:-]*${d}\\d{3}`, `invoice #${d}${digits(rnd, 3)}`];
    }
    case 3:
      return [`[a-z0-9._-]+@(?:[a-z0-9-]+\\.)*${w}\\.example`, `jo.doe@mail.${w}.example`];
    case 4:
      return [`\\b${w}\\b`, ` ${w} `];
    default:
      return [`${w}[_-]?statement[_-]?\\d{4,8}\\.pdf`, `${w}_statement_${digits(rnd, 6)}.pdf`];
  }
}

const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** A near miss of `sample`: one character changed, a digit changed, cut short, or glued to a word. */
function nearMiss(rnd: Random, sample: string): string {
  const r = rnd();
  if (r < 0.3) {
    const i = int(rnd, 0, sample.length - 1);
    return sample.slice(0, i) + pick(rnd, ['x', '0', '-', 'q']) + sample.slice(i + 1);
  }
  if (r < 0.5) return sample.replace(/\d/, (d) => String((Number(d) + 1) % 10));
  if (r < 0.7) return sample.slice(0, Math.max(1, sample.length - int(rnd, 1, 3)));
  if (r < 0.85) return `${sample.slice(0, Math.ceil(sample.length / 2))}${word(rnd)}`;
  return oddCase(rnd, sample.replace(/[a-z]/, 'z'));
}

/** Upper-cases some letters; swaps in the Kelvin sign for k and long s for s now and then. */
function oddCase(rnd: Random, s: string): string {
  let out = '';
  for (const ch of s) {
    const r = rnd();
    if (ch === 'k' && r < 0.3) out += '\u212A';
    else if (ch === 's' && r < 0.2) out += '\u017F';
    else out += r < 0.3 ? ch.toUpperCase() : ch;
  }
  return out;
}

const FILLER =
  'please find attached the pre-alert for shipment container booking ETA vessel port of loading regards team invoice statement number ref order'.split(
    ' ',
  );
const EXOTIC = ['über', 'façade', 'naïve', '東京', 'Ωmega', '😀', 'ſtraße', 'İstanbul', '\u212Aelvin'];

function filler(rnd: Random, length: number, marks: readonly SyntheticMark[], hits: number): string {
  const pieces: string[] = [];
  let size = 0;
  let toPlace = hits;
  while (size < length) {
    const r = rnd();
    let piece: string;
    if (r < 0.55) piece = pick(rnd, FILLER);
    else if (r < 0.75) piece = nearMiss(rnd, pick(rnd, marks).sample);
    else if (r < 0.85) piece = word(rnd);
    else if (r < 0.9) piece = pick(rnd, EXOTIC);
    else if (r < 0.95) piece = `${digits(rnd, int(rnd, 3, 8))}`;
    else piece = pick(rnd, ['\n', ',', ':', '#', ' - ']);
    if (toPlace > 0 && rnd() < 0.02) {
      piece = oddCase(rnd, pick(rnd, marks).sample);
      toPlace--;
    }
    pieces.push(piece);
    size += piece.length + 1;
  }
  return pieces.join(' ');
}

/**
 * A message of about `sizeBytes` characters (a ~2 KB message is mostly body; a large one is 40% body
 * and 60% attachment text), full of near misses of `marks` with a few real hits.
 */
export function syntheticMessage(
  rnd: Random,
  marks: readonly SyntheticMark[],
  sizeBytes: number,
  serial: number,
): MailMessage {
  const large = sizeBytes > 8000;
  const bodyLength = large ? Math.floor(sizeBytes * 0.4) : sizeBytes - 300;
  const attachmentLength = large ? Math.floor(sizeBytes * 0.6) : 200;
  const fromMark = pick(rnd, marks).sample;
  const address =
    rnd() < 0.3 && fromMark.includes('@')
      ? fromMark.toLowerCase()
      : `${nearMiss(rnd, word(rnd))}@${word(rnd)}.example`;
  return {
    messageId: `bench-${serial}@example`,
    contentHash: `bench-${serial}`,
    from: {
      address: address.toLowerCase(),
      name: rnd() < 0.5 ? '' : filler(rnd, 20, marks, rnd() < 0.2 ? 1 : 0),
    },
    replyTo: [],
    to: [],
    cc: [],
    subject: `${serial} ${filler(rnd, 60, marks, rnd() < 0.5 ? 1 : 0)}`,
    date: null,
    body: filler(rnd, bodyLength, marks, int(rnd, 0, 3)),
    attachments: [
      {
        filename: `${nearMiss(rnd, pick(rnd, marks).sample).replace(/[^\w.-]/g, '_')}.csv`,
        contentType: 'text/csv',
        sizeBytes: attachmentLength,
        text: filler(rnd, attachmentLength, marks, int(rnd, 0, 2)),
        table: null,
      },
    ],
    isReply: false,
    isForward: false,
    isAutomated: false,
  };
}
