// Invariant: the compiled matcher returns exactly the naive one-re2-per-mark oracle's hits (§13.3).
import { describe, expect, it } from 'vitest';
import { seededRandom, syntheticMarks, syntheticMessage } from '../../../bench/matching-corpus.ts';
import type { MailMessage } from '../mail/index.ts';
import { compileMatcher, compileMatcherAsync } from './compile-matcher.ts';
import type { Mark, MarkHit } from './matcher.ts';
import { sparseOffsets, utf8Offsets } from './subject.ts';

/** A mark as a caller labels it (the engine hands it back and reads only source and parts). */
interface IndexedMark extends Mark {
  readonly collection: string;
  readonly entry: string;
  readonly mark: string;
  readonly where: string;
  readonly provenance: { readonly activation: number; readonly taughtBy: string; readonly at: string };
}
import { createNaiveMatcher } from './naive-matcher.ts';

const provenance = { activation: 1, taughtBy: 'p1', at: '2026-01-01T00:00:00.000Z' };

function mark(
  source: string,
  parts: IndexedMark['parts'] = ['from', 'subject', 'body', 'attachments'],
): IndexedMark {
  return {
    collection: 'customers',
    entry: 'x',
    source,
    parts,
    mark: source,
    where: parts.length === 1 ? parts[0]! : 'any',
    provenance,
  };
}

function message(over: Partial<MailMessage>): MailMessage {
  return {
    messageId: null,
    contentHash: 'h',
    from: null,
    replyTo: [],
    to: [],
    cc: [],
    subject: '',
    date: null,
    body: '',
    attachments: [],
    isReply: false,
    isForward: false,
    isAutomated: false,
    ...over,
  };
}

const show = (hits: readonly MarkHit[]): string[] =>
  hits.map((h) => `${h.mark.source} | ${h.part} | ${h.text}`);

describe('compileMatcher (§13.3)', () => {
  it('finds a literal mark on the part it names, with the text as written', () => {
    const marks = [mark('billing@origin\\.example', ['from']), mark('PA-2026-0901', ['subject'])];
    const hits = compileMatcher(marks).match(
      message({
        from: { address: 'billing@origin.example', name: '' },
        subject: 'Re: pa-2026-0901 and PA-2026-0901',
        body: 'billing@origin.example',
      }),
    );
    expect(show(hits)).toEqual([
      'billing@origin\\.example | from | billing@origin.example',
      'PA-2026-0901 | subject | pa-2026-0901',
    ]);
  });

  it('does not look in a part the mark does not name', () => {
    const hits = compileMatcher([mark('northgate', ['from'])]).match(
      message({ subject: 'Northgate', body: 'northgate' }),
    );
    expect(hits).toEqual([]);
  });

  it('folds case the way re2 does: Kelvin sign and long s match k and s', () => {
    const marks = [mark('kelvin desk'), mark('kelvin\\s+desk'), mark('straße'), mark('ask')];
    const m = message({ body: '\u212AELVIN DE\u017FK and STRASSE, Straße, A\u017F\u212A' });
    expect(show(compileMatcher(marks).match(m))).toEqual(show(createNaiveMatcher(marks).match(m)));
    expect(compileMatcher(marks).match(m)).toHaveLength(4);
  });

  it('confirms regexes: a hit on an atom alone is not a match', () => {
    const marks = [mark('XYZ-20\\d{2}-\\d{4}'), mark('word\\s+motors')];
    const m = message({ body: 'XYZ-2026-09 xyz-20ab-1234 motors word' });
    expect(compileMatcher(marks).match(m)).toEqual([]);
    const hit = message({ body: 'ref xyz-2026-0901 and WORD \t MOTORS' });
    expect(show(compileMatcher(marks).match(hit))).toEqual([
      'XYZ-20\\d{2}-\\d{4} | body | xyz-2026-0901',
      'word\\s+motors | body | WORD \t MOTORS',
    ]);
  });

  it('skips re2 only when a required literal is missing from the part; folded like re2 (Kelvin sign, long s)', () => {
    const marks = [mark('norgate\\s+motors[_-]?\\d{2}'), mark('norgate\\s+motors[_-]?\\d{2}', ['subject'])];
    // "motors" only in another part: no match in the body; in odd case it still counts.
    const apart = message({ subject: 'motors', body: 'norgate  moto 12 norgate' });
    expect(compileMatcher(marks).match(apart)).toEqual([]);
    const odd = message({
      subject: 'NORGATE MOTOR\u017F-12',
      body: 'norgate \t MOTORS_77 and norgate motors 1',
    });
    const hits = compileMatcher(marks).match(odd);
    expect(show(hits)).toEqual(show(createNaiveMatcher(marks).match(odd)));
    expect(show(hits)).toEqual([
      'norgate\\s+motors[_-]?\\d{2} | subject | NORGATE MOTOR\u017F-12',
      'norgate\\s+motors[_-]?\\d{2} | body | norgate \t MOTORS_77',
      'norgate\\s+motors[_-]?\\d{2} | subject | NORGATE MOTOR\u017F-12',
    ]);
  });

  it('stays exact when marks share a source and the confirm cache holds one re2 (evicting on every use)', () => {
    const marks = [
      mark('XYZ-20\\d{2}-\\d{4}', ['body']),
      mark('word\\s+motors'),
      mark('XYZ-20\\d{2}-\\d{4}', ['subject', 'body']),
      mark('(?:inv|invoice)[\\s#:-]*123\\d{3}'),
    ];
    const compiled = compileMatcher(marks, { confirmCacheSize: 1, setShardSize: 1 });
    const naive = createNaiveMatcher(marks);
    for (const body of [
      'xyz-2026-0901 word motors inv 123456',
      'WORD  MOTORS xyz-20x6',
      'invoice#123999 XYZ-2099-1234',
    ]) {
      const m = message({ subject: 'xyz-2027-1111 word\tmotors', body });
      expect(show(compiled.match(m))).toEqual(show(naive.match(m)));
      expect(compiled.match(m).length).toBeGreaterThan(2);
    }
  });

  it('runs atom-less marks (RE2.Set shards) and keeps their first match text', () => {
    const marks = [mark('(?:inv|invoice)[\\s#:-]*123\\d{3}'), mark('\\d{4}'), mark('a*', ['subject'])];
    const m = message({ subject: 'bbb', body: 'x INV# 123456 and 77' });
    const hits = compileMatcher(marks, { setShardSize: 1 }).match(m);
    expect(show(hits)).toEqual(show(createNaiveMatcher(marks).match(m)));
    expect(show(hits)).toContain('\\d{4} | body | 1234');
    expect(show(hits)).toContain('a* | subject | ');
  });

  it('gives the leftmost match even when it starts long before the first atom hit, and honours ^ $ \\b', () => {
    const marks = [
      mark('[a-z0-9._-]+@(?:[a-z0-9-]+\\.)*dom\\.example'),
      mark('^invoice\\s+\\w+'),
      mark('motors$'),
      mark('\\bgate\\b'),
      mark('.{0,40}gateway'),
      mark('ü.{0,3}ller gmbh'),
      mark('(?:big|small)?\\s?norgate\\s+motors'), // bounded lead, unbounded length
      mark('\\bnorgate\\s+\\w'),
    ];
    const texts = [
      'a.very.long.local.part.that.keeps.going.on.and.on@mail.sub.dom.example',
      'invoice 42 and invoice again',
      'x invoice 42',
      'Northgate Motors',
      'motors of the north',
      'northgate gate gateway',
      'ÜÜ😀 Müller GmbH, über Mü ller GMBH ÜxLLER GMBH',
      '😀😀😀😀😀😀😀 a gateway',
      'xnorgate motors, small norgate  motors, big norgate\tMOTORS, norgate, 😀norgate x',
      'smallnorgate motors norgatemotors',
    ];
    const compiled = compileMatcher(marks);
    const naive = createNaiveMatcher(marks);
    for (const body of texts) {
      const m = message({ body, subject: body.toUpperCase() });
      expect(show(compiled.match(m)), body).toEqual(show(naive.match(m)));
    }
  });

  it('reads a literal between \\b anchors without re2, exactly as re2 does: ASCII word characters only', () => {
    const marks = [
      mark('\\bnorgate\\b'),
      mark('\\bask\\b'),
      mark('\\bx_y\\.z\\b'),
      mark('\\b-ref\\b'),
      mark('foo\\\\b'), // a literal backslash then "b": not an anchor
      mark('foo\\\\\\b'), // a literal backslash, then an anchor
      mark('\\bpa-2026-0901'),
    ];
    const texts = [
      'norgate',
      'xnorgate norgate_ norgate9 norgateé énorgate NORGATE.',
      'AS\u212A as\u212A ask\u212A \u212Aask a\u017Fk ask',
      'x_y.z1 x_y.zz (x_y.z)',
      'a-ref -ref a -refx -ref',
      'foo\\b foo\\x foo\\',
      'pa-2026-09012 xpa-2026-0901 _pa-2026-0901 PA-2026-0901',
    ];
    const compiled = compileMatcher(marks);
    expect(compiled.stats.literalMarks).toBe(marks.length);
    const naive = createNaiveMatcher(marks);
    for (const body of texts) {
      const m = message({ body, subject: `${body} ${body.toUpperCase()}` });
      expect(show(compiled.match(m)), body).toEqual(show(naive.match(m)));
    }
  });

  it('stays exact on a long token without whitespace full of atom hits (bounds by whitespace give way)', () => {
    const marks = [
      mark('[a-z0-9._-]+@(?:[a-z0-9-]+\\.)*dom\\.example'),
      mark('\\w+ abcd\\S+'),
      mark('[a-z]+norgate\\s+motors'),
      mark('x\\w*abcd\\S*q'),
    ];
    const blob = 'ab.dom.examplexabcd-norgate'.repeat(400);
    const texts = [
      blob,
      `${blob} abcd-${blob}q norgate motors`,
      `x${blob}@dom.example`,
      `start ${blob.slice(0, 3000)}@sub.dom.example end`,
    ];
    const compiled = compileMatcher(marks);
    const naive = createNaiveMatcher(marks);
    for (const body of texts) {
      const m = message({ body });
      expect(show(compiled.match(m)), body.slice(0, 40)).toEqual(show(naive.match(m)));
    }
  });

  it('reports each (mark, part) once and a mark in every part it names', () => {
    const marks = [mark('gulftrade')];
    const hits = compileMatcher(marks).match(
      message({
        subject: 'Gulftrade gulftrade',
        body: 'GULFTRADE',
        from: { address: 'a@gulftrade.example', name: '' },
      }),
    );
    expect(hits.map((h) => h.part)).toEqual(['from', 'subject', 'body']);
  });

  it('equals the naive oracle on seeded synthetic marks and hundreds of near-miss messages', () => {
    let compared = 0;
    let hitsSeen = 0;
    for (const [count, seed] of [
      [60, 1],
      [400, 2],
      [1500, 3],
    ] as const) {
      const marks = syntheticMarks(count, seed);
      const compiled = compileMatcher(marks, { setShardSize: 50, confirmCacheSize: 64 });
      const naive = createNaiveMatcher(marks);
      const rnd = seededRandom(seed * 7919);
      for (let i = 0; i < 150; i++) {
        const m = syntheticMessage(rnd, marks, i % 15 === 0 ? 20_000 : 1500, i);
        const expected = show(naive.match(m));
        expect(show(compiled.match(m))).toEqual(expected);
        compared++;
        hitsSeen += expected.length;
      }
      expect(compiled.stats.setMarks).toBeGreaterThan(0);
      expect(compiled.stats.atomMarks).toBeGreaterThan(0);
    }
    expect(compared).toBe(450);
    expect(hitsSeen).toBeGreaterThan(300);
  });

  it('drops only hits no match can use: characters next to the atom, and a run then a literal after it (§13.3)', () => {
    // Patterns whose atoms carry a context (a class before or after) or a gap (a run, then a
    // literal), and texts glued from pieces that meet those contexts, miss them by one character,
    // run whitespace long (past the 64-unit look-ahead) or not ASCII at all, in odd case.
    const sources = [
      'norgate\\s+motors',
      'norgate\\s*cargo',
      'acme[\\s_-]{1,3}motors',
      'acme\\s{2}cargo',
      '[a-z0-9._-]+@(?:[a-z0-9-]+\\.)*dom\\.example',
      'XYZ-20\\d{2}-\\d{4}',
      '(?:north|south)gate\\s+motors',
      'abcd(?:x|yz)+q',
      '(?:abcd\\s+){2}efgh',
      'ask\\s+desk',
      'müller\\s+gmbh',
      'wxyz[^a-c]+ende',
      '\\d{3}abcd-\\d+',
      'abcd\\.pdf$',
      '^norgate\\s+x',
      'stuv\\s+(?:ltd|gmbh)',
      '[xy]+[ab]cdefg',
      'Rinefal Łódź',
      'wxyz[a-z]+-ende', // [a-z] matches KELVIN SIGN and LONG S under folding: a non-ASCII run
      '(?:ab|cd)efgh(?:ij)?\\d', // the kept atom "cdefgh" may be followed by the dropped one's "i"
      '(?:xabcd)+y', // the next repetition may follow the first one's atom
      '(?:abcd\\s*)(?:z|y)', // an open context inside a group meets what follows the group
      'a\u212Asdesk\\d', // KELVIN SIGN in the pattern stands for k
    ];
    const marks = sources.map((s) => mark(s));
    const compiled = compileMatcher(marks, { confirmCacheSize: 4 });
    const naive = createNaiveMatcher(marks);
    const pieces = [
      'norgate',
      'NORGATE',
      'motors',
      'Motors',
      'cargo',
      'acme',
      ' ',
      '  ',
      '\t',
      '\n',
      '\u00a0',
      '_',
      '-',
      '@',
      '.',
      'dom',
      'example',
      'XYZ',
      '-20',
      '12',
      '1234',
      'north',
      'south',
      'gate',
      'ab',
      'abcd',
      'x',
      'yz',
      'q',
      'efgh',
      'a\u017Fk',
      'as\u212A',
      'desk',
      'ask',
      'MÜLLER',
      'müller',
      'gmbh',
      'wxyz',
      'ende',
      '.pdf',
      'stuv',
      'ltd',
      'cdefg',
      'X',
      'b',
      'Rinefal',
      'Łódź',
      'Lodz',
      '123',
      ' '.repeat(70),
      '\u2003',
    ];
    const samples = [
      'norgate motors',
      'NORGATE \t Motors',
      'norgatecargo',
      'acme_-motors',
      'acme  cargo',
      'jo.doe@mail.dom.example',
      'XYZ-2031-0042',
      'southgate\tmotors',
      'abcdxyzq',
      'abcd abcd  efgh',
      'a\u017Fk desk',
      'MÜLLER gmbh',
      'wxyzdende',
      '123abcd-4',
      'abcd.pdf',
      'stuv ltd',
      'xyacdefg',
      'Rinefal Łódź',
      'wxyz\u212A\u017F-ende',
      'cdefghij5',
      'xabcdxabcdy',
      'abcd  z',
      'aksdesk7',
      'AKSDESK7',
    ];
    const rnd = seededRandom(20261201);
    let hits = 0;
    for (let i = 0; i < 3000; i++) {
      let body = '';
      const length = 1 + Math.floor(rnd() * 12);
      for (let p = 0; p < length; p++)
        body +=
          rnd() < 0.15
            ? samples[Math.floor(rnd() * samples.length)]
            : pieces[Math.floor(rnd() * pieces.length)];
      const m = message({ body });
      const expected = show(naive.match(m));
      expect(show(compiled.match(m)), JSON.stringify(body)).toEqual(expected);
      hits += expected.length;
    }
    expect(hits).toBeGreaterThan(1500);
  });

  it('finds byte offsets from the non-ASCII runs alone exactly as the full pass does (pairs, lone surrogates)', () => {
    const rnd = seededRandom(3);
    const pieces = [
      'é',
      'Ł',
      '東',
      '😀',
      '\ud800',
      '\udc00',
      'x\u212A',
      'ſ',
      '\u0080',
      '\u07ff',
      '\u0800',
      '\uffff',
    ];
    let checked = 0;
    for (let t = 0; t < 3000; t++) {
      let text = '';
      const n = 1 + Math.floor(rnd() * 30);
      for (let i = 0; i < n; i++)
        text +=
          rnd() < 0.6
            ? 'abcdefgh'.slice(0, 1 + Math.floor(rnd() * 8))
            : pieces[Math.floor(rnd() * pieces.length)];
      const dense = utf8Offsets(text);
      const sparse = sparseOffsets(text);
      for (let u = 0; u <= text.length; u++, checked++)
        expect(sparse(u), `${JSON.stringify(text)} @${u}`).toBe(dense[u]);
      expect(dense[text.length]).toBe(Buffer.byteLength(text));
    }
    expect(checked).toBeGreaterThan(50_000);
  });

  it('compiles without blocking the event loop: slices with turns between them, the same matcher (§13.3)', async () => {
    const marks = syntheticMarks(3000, 11);
    let turns = 0;
    let running = true;
    const tick = (): void => {
      turns++;
      if (running) setImmediate(tick);
    };
    setImmediate(tick);
    let slices = 0;
    const compiled = await compileMatcherAsync(marks, { sliceMs: 0, onSlice: () => slices++ });
    running = false;
    // sliceMs 0: one step per slice, and the event loop turned between slices.
    expect(slices).toBeGreaterThan(10);
    expect(turns).toBeGreaterThan(10);
    const sync = compileMatcher(marks);
    expect(compiled.stats).toEqual(sync.stats);
    const rnd = seededRandom(12);
    for (let i = 0; i < 40; i++) {
      const m = syntheticMessage(rnd, marks, 1500, i);
      expect(show(compiled.match(m))).toEqual(show(sync.match(m)));
    }
  });
});
