/**
 * How well each candidate splits mail into its new text and the rest (issue 14, docs/new-text.md):
 * ours (src/domain/mail/new-text.ts) beside the npm libraries email-reply-parser, email-forward-parser
 * and planer (text mode), on (1) every fixture of fixtures/mail with an expected split and (2) a
 * battery of reply headers, separators, sign-offs and disclaimers in the fixtures' languages.
 *
 * The libraries are not dependencies of the project; install them apart and name the folder:
 *   mkdir -p /tmp/splitters && cd /tmp/splitters && npm init -y >/dev/null &&
 *     npm install email-reply-parser@2.3.9 email-forward-parser@1.8.3 planer@1.2.0
 *   npx tsx bench/new-text/compare-splitters.ts /tmp/splitters
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { splitMailText } from '../../src/domain/mail/index.ts';
import { parseMail } from '../../src/ingest/mail/parse.ts';

interface ReplyParser {
  read(text: string): { getVisibleText(): string };
}
interface ForwardParser {
  read(
    body: string,
    subject?: string,
  ): { forwarded?: boolean; message?: string; email?: { from?: { address?: string } } };
}
type Split = (body: string, subject: string) => { newText: string; forwardedFrom?: string | null };

const libs = process.argv[2];
if (libs === undefined) throw new Error('Name the folder the libraries are installed in (see the header).');
const need = createRequire(join(libs, 'package.json'));
const ReplyParserClass = (need('email-reply-parser') as { default: new () => ReplyParser }).default;
const ForwardParserClass = (need('email-forward-parser') as { default: new () => ForwardParser }).default;
const planer = need('planer') as { extractFrom(text: string, type: string): string };

const replyParser: Split = (b) => ({ newText: new ReplyParserClass().read(b).getVisibleText() });
const forwardParser: Split = (b, s) => {
  const r = new ForwardParserClass().read(b, s);
  return r.forwarded === true
    ? { newText: r.message ?? '', forwardedFrom: r.email?.from?.address?.toLowerCase() ?? null }
    : { newText: b, forwardedFrom: null };
};
const SPLITTERS: Record<string, Split> = {
  ours: (b, s) => {
    const t = splitMailText(b, s);
    return { newText: t.newText, forwardedFrom: t.forwardedFrom?.address ?? null };
  },
  'email-reply-parser': replyParser,
  'email-forward-parser': forwardParser,
  'planer (text/plain)': (b) => ({ newText: planer.extractFrom(b, 'text/plain') }),
  'forward-parser, then reply-parser': (b, s) => {
    const f = forwardParser(b, s);
    return { newText: replyParser(f.newText, s).newText, forwardedFrom: f.forwardedFrom ?? null };
  },
};

interface Expected {
  file: string;
  newText?: { has: string[]; hasNot: string[]; forwardedFrom: string | null };
}

const MAIL = join(import.meta.dirname, '../../fixtures/mail');
const expected = (JSON.parse(readFileSync(join(MAIL, 'expected.json'), 'utf8')) as Expected[]).filter(
  (e) => e.newText !== undefined,
);
const messages = await Promise.all(expected.map(async (e) => parseMail(readFileSync(join(MAIL, e.file)))));

const HEADERS: readonly (readonly [string, string])[] = [
  ['en On wrote', 'On Mon, 30 Mar 2026 at 16:40, Dana Reyes <d@x.example> wrote:'],
  ['en On wrote, wrapped', 'On Mon, 30 Mar 2026 at 16:40, Dana Reyes of the desk <\nd@x.example> wrote:'],
  ['de Am schrieb', 'Am 30.03.2026 um 16:40 schrieb Dana Reyes <d@x.example>:'],
  ['fr Le a écrit', 'Le lun. 30 mars 2026 à 16:40, Dana Reyes <d@x.example> a écrit :'],
  ['es El escribió', 'El lun, 30 mar 2026 a las 16:40, Dana Reyes (<d@x.example>) escribió:'],
  ['nl Op schreef', 'Op ma 30 mrt 2026 om 16:40 schreef Dana Reyes <d@x.example>:'],
  ['it Il ha scritto', 'Il giorno lun 30 mar 2026 alle ore 16:40 Dana Reyes <d@x.example> ha scritto:'],
  ['pt Em escreveu', 'Em seg., 30 de mar. de 2026 às 16:40, Dana Reyes <d@x.example> escreveu:'],
  ['ar Gmail', 'في الإثنين، 30 مارس 2026 في 4:40 م كتب Dana Reyes <d@x.example>:'],
  [
    'en Outlook block',
    'From: Dana Reyes <d@x.example>\nSent: Monday, March 30, 2026 4:40 PM\nTo: I <i@w.example>\nSubject: Slot',
  ],
  [
    'de Outlook block',
    'Von: Dana Reyes <d@x.example>\nGesendet: Montag, 30. März 2026 16:40\nAn: I <i@w.example>\nBetreff: Slot',
  ],
  [
    'fr Outlook block',
    'De : Dana Reyes <d@x.example>\nEnvoyé : lundi 30 mars 2026 16:40\nÀ : I <i@w.example>\nObjet : Slot',
  ],
  [
    'es Outlook block',
    'De: Dana Reyes <d@x.example>\nEnviado: lunes, 30 de marzo de 2026 16:40\nPara: I\nAsunto: Slot',
  ],
  [
    'nl Outlook block',
    'Van: Dana Reyes <d@x.example>\nVerzonden: maandag 30 maart 2026 16:40\nAan: I\nOnderwerp: Slot',
  ],
  [
    'it Outlook block',
    'Da: Dana Reyes <d@x.example>\nInviato: lunedì 30 marzo 2026 16:40\nA: I\nOggetto: Slot',
  ],
  [
    'en Original Message',
    '-----Original Message-----\nFrom: Dana Reyes <d@x.example>\nSent: Monday, March 30, 2026',
  ],
  [
    'de Ursprüngliche Nachricht',
    '-----Ursprüngliche Nachricht-----\nVon: Dana Reyes <d@x.example>\nGesendet: Montag',
  ],
  [
    "fr Message d'origine",
    "-----Message d'origine-----\nDe : Dana Reyes <d@x.example>\nEnvoyé : lundi 30 mars 2026",
  ],
  [
    'en Gmail forward',
    '---------- Forwarded message ---------\nFrom: Dana Reyes <d@x.example>\nSubject: Slot',
  ],
  [
    'de Gmail forward',
    '---------- Weitergeleitete Nachricht ---------\nVon: Dana Reyes <d@x.example>\nSubject: Slot',
  ],
  [
    'fr Gmail forward',
    '---------- Message transféré ---------\nDe : Dana Reyes <d@x.example>\nSubject: Slot',
  ],
  ['es Gmail forward', '---------- Mensaje reenviado ---------\nDe: Dana Reyes <d@x.example>\nSubject: Slot'],
  ['Apple forward', 'Begin forwarded message:\n\nFrom: Dana Reyes <d@x.example>\nSubject: Slot'],
  [
    'Outlook underscores',
    '________________________________\nFrom: Dana Reyes <d@x.example>\nSent: Monday, March 30, 2026',
  ],
];
const SIGNATURES: readonly (readonly [string, string])[] = [
  ['en Kind regards', 'Kind regards,\nDana Reyes\nZYXCO Trading Ltd'],
  ['de MfG', 'Mit freundlichen Grüßen\nDana Reyes\nZYXCO GmbH'],
  ['fr Cordialement', 'Cordialement,\nDana Reyes\nZYXCO SAS'],
  ['es Un saludo', 'Un saludo,\nDana Reyes\nZYXCO S.L.'],
  ['nl Met vriendelijke groet', 'Met vriendelijke groet,\nDana Reyes\nZYXCO B.V.'],
  ['it Cordiali saluti', 'Cordiali saluti\nDana Reyes\nZYXCO S.r.l.'],
  ['ar مع التحية', 'مع التحية،\nDana Reyes\nZYXCO'],
  ['-- line', 'Dana\n-- \nDana Reyes | ZYXCO Trading Ltd'],
  [
    'en disclaimer',
    'Dana\n\nThis e-mail and any attachments are confidential and intended solely for the addressee. ZYXCO.',
  ],
  ['de disclaimer', 'Dana\n\nDiese E-Mail ist vertraulich. ZYXCO GmbH, Amtsgericht Bielefeld.'],
];

function attempt(split: Split, body: string, subject: string): ReturnType<Split> | null {
  try {
    return split(body, subject);
  } catch {
    return null;
  }
}

for (const [name, split] of Object.entries(SPLITTERS)) {
  const wrong: string[] = [];
  let fwdRight = 0;
  let fwdAsked = false;
  expected.forEach((e, i) => {
    const m = messages[i]!;
    const out = attempt(split, m.body, m.subject);
    const t = e.newText!;
    const right =
      out !== null &&
      t.has.every((h) => out.newText.includes(h)) &&
      t.hasNot.every((h) => !out.newText.includes(h));
    if (!right) wrong.push(e.file.replace(/\.eml$/, ''));
    if (out?.forwardedFrom !== undefined) {
      fwdAsked = true;
      if (out.forwardedFrom === t.forwardedFrom) fwdRight++;
    }
  });
  const missedHeaders = HEADERS.filter(([label, header]) => {
    // an attribution introduces '>' lines, as mail clients write them; a header block or separator plain lines
    const plain = header.includes('\n') || /^[-_B]/.test(header);
    const quote = plain
      ? 'QUOTED from the earlier mail\nQUOTED too'
      : '> QUOTED from the earlier mail\n> QUOTED too';
    const out = attempt(
      split,
      `Thursday works for us, NEW.\n\nAisha\n\n${header}\n\n${quote}`,
      /forward/i.test(label) ? 'Fwd: Slot' : 'Re: Slot',
    );
    return out === null || !out.newText.includes('NEW') || out.newText.includes('QUOTED');
  }).map(([label]) => label);
  const missedSignatures = SIGNATURES.filter(([, sig]) => {
    const out = attempt(split, `Hello,\n\nThe truck arrives at 10:00, NEW.\n\n${sig}`, 'Delivery');
    return out === null || !out.newText.includes('NEW') || out.newText.includes('ZYXCO');
  }).map(([label]) => label);
  console.log(
    `${name}: fixtures ${expected.length - wrong.length}/${expected.length}` +
      `, forwardedFrom ${fwdAsked ? `${fwdRight}/${expected.length}` : 'not given'}` +
      `, reply headers ${HEADERS.length - missedHeaders.length}/${HEADERS.length}` +
      `, signatures and disclaimers ${SIGNATURES.length - missedSignatures.length}/${SIGNATURES.length}`,
  );
  if (wrong.length > 0) console.log(`  fixtures split wrong: ${wrong.join(', ')}`);
  if (missedHeaders.length > 0) console.log(`  headers missed: ${missedHeaders.join('; ')}`);
  if (missedSignatures.length > 0) console.log(`  signatures missed: ${missedSignatures.join('; ')}`);
}

// Hostile (or merely odd) bodies: the time each splitter takes, once as a reply and once as a forward (a stalled event loop stalls every tenant).
const HOSTILE: readonly (readonly [string, string])[] = [
  ['"On " and 20,000 spaces', `On ${' '.repeat(20_000)}x`],
  ['"From:" and 20,000 spaces', `From:${' '.repeat(20_000)}x\nSent:`],
  ['5,000 lines "Le … a écrit a écrit …"', `${`Le ${'a écrit '.repeat(50)}`.slice(0, 399)}\n`.repeat(5_000)],
  ['5,000 lines "Kind regards,"', 'Kind regards,\n'.repeat(5_000)],
];
for (const [label, body] of HOSTILE) {
  const times = Object.entries(SPLITTERS)
    .filter(([name]) => !name.includes(', then '))
    .map(([name, split]) => {
      const t0 = process.hrtime.bigint();
      attempt(split, body, 'Re: x');
      attempt(split, body, 'Fwd: x'); // a forward's subject sends the forward parser down its own path
      return `${name} ${(Number(process.hrtime.bigint() - t0) / 1e6).toFixed(1)} ms`;
    });
  console.log(`${label} (${body.length} chars): ${times.join(', ')}`);
}
