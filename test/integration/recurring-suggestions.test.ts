// Invariant (issue 14): what is suggested beyond the message's own text (a reference family, a domain) recurs for one customer in the corpus and never exceeds what was seen (§8, §13.1); evidence that disagrees is not a decision.
import { describe, expect, it } from 'vitest';
import { mail, type TestLesson } from '../support/definitions.ts';
import {
  customers,
  directory,
  expectSuggestion,
  matcherOf,
  readFor,
  seen,
  suggestFor,
  useCorpus,
} from '../support/suggest-corpus.ts';
import type { CollectionReading } from '../../src/domain/learnables/index.ts';

useCorpus();

const behalf = { address: 'desk@allports-forwarding.example', name: 'Allports Desk' };
const onBehalf = (ref: string) =>
  mail({ from: behalf, subject: `POD ${ref}`, body: 'On behalf of our client, see below.' });

/** Issue 39: no suggestion, and why: the family's shortfall (`family`), and the reference never taken whole. */
function noFamily(o: Awaited<ReturnType<typeof suggestFor>>, ref: string, family: string): void {
  if (!('none' in o)) throw new Error(`expected no suggestion, got ${o.suggestion.suggestionLabel}`);
  expect(o.none).toContain(`references shaped ${family}`);
  expect(o.none).toContain(`I won't suggest the reference ${ref} taken whole`);
}

function customerReport(m: ReturnType<typeof mail>, lessons: TestLesson[] = directory): CollectionReading {
  return readFor(m, lessons).reading.readings.get('customers')!.report as CollectionReading;
}

describe('reference families (issue 14, §8)', () => {
  it('suggests the customer’s own family once three messages read as that customer carry it, on more than one day, anchored both ends', async () => {
    await seen(mail({ subject: 'Pre-alert NGM-2026-0412' }), 'northgate');
    await seen(mail({ subject: 'Invoice NGM-2026-0513' }), 'northgate', '2026-09-02');
    await seen(mail({ subject: 'POD NGM-2026-0514' }), 'northgate', '2026-09-03');
    const s = expectSuggestion(await suggestFor(onBehalf('NGM-2026-0777')));
    expect(s.forEntry).toBe('northgate');
    expect(s.suggestionLabel).toBe(
      'references shaped NGM-####-#### (like NGM-2026-0777) in the subject, on 3 messages already read, all Northgate Motors Ltd',
    );
    const hits = matcherOf(s);
    for (const yes of ['POD NGM-2027-1234', 'NGM-2026-0001 arrived', 'Re: (NGM-2026-0002)'])
      expect(hits(mail({ subject: yes })), yes).toBe(true);
    // A longer prefix of another customer's, a longer number, another segment: never claimed.
    for (const no of [
      'XNGM-2026-0777',
      'NGMX-2026-0777',
      'NGM-2026-07771',
      'NGM-2026-0777-2',
      'NGM/2026/0777',
    ])
      expect(hits(mail({ subject: no })), no).toBe(false);
    expect(hits(mail({ body: 'NGM-2026-0777' }))).toBe(false); // only the part it was seen in
  });

  it('draws no family from a reply’s inherited subject', async () => {
    await seen(mail({ subject: 'Pre-alert NGM-2026-0412' }), 'northgate');
    await seen(mail({ subject: 'Invoice NGM-2026-0513' }), 'northgate', '2026-09-02');
    await seen(mail({ subject: 'POD NGM-2026-0514' }), 'northgate', '2026-09-03');
    const reply = { ...onBehalf('NGM-2026-0777'), subject: 'Re: POD NGM-2026-0777', isReply: true };
    const o = await suggestFor(reply);
    expect('none' in o && o.none).not.toContain('references shaped');
    expect('none' in o && o.none).toContain("I won't suggest the reference NGM-2026-0777 taken whole");
  });

  it('draws the family from the new text first, so a reply on the thread, another customer’s hijack too, never meets it', async () => {
    await seen(
      mail({ subject: 'Pre-alert NGM-2026-0412', body: 'Shipment NGM-2026-0412, 3 pieces.' }),
      'northgate',
    );
    await seen(
      mail({ subject: 'Invoice NGM-2026-0513', body: 'Shipment NGM-2026-0513, 1 piece.' }),
      'northgate',
      '2026-09-02',
    );
    await seen(
      mail({ subject: 'POD NGM-2026-0514', body: 'Shipment NGM-2026-0514 delivered.' }),
      'northgate',
      '2026-09-03',
    );
    const m = { ...onBehalf('NGM-2026-0777'), body: 'On behalf of our client: shipment NGM-2026-0777.' };
    const s = expectSuggestion(await suggestFor(m));
    expect(s.forEntry).toBe('northgate');
    expect(s.suggestionLabel).toBe(
      'references shaped NGM-####-#### (like NGM-2026-0777) in the body, on 3 messages already read, all Northgate Motors Ltd',
    );
    expect(matcherOf(s)(mail({ subject: 'Re: Pre-alert NGM-2026-0412', body: 'Our shipment AHT/77.' }))).toBe(
      false,
    );
  });

  it('offers no family on two messages of one customer: a shared series can start that way (issue 26, stream B)', async () => {
    const platform = { address: 'noreply@einvoice.example', name: '' };
    await seen(mail({ from: platform, subject: 'Debit note INV-2026-008920' }), 'alhamra');
    await seen(mail({ from: platform, subject: 'Debit note INV-2026-009164' }), 'alhamra', '2026-09-02');
    noFamily(
      await suggestFor(mail({ from: platform, subject: 'Debit note INV-2026-009301' })),
      'INV-2026-009301',
      'INV-####-######',
    );
  });

  it('offers no family seen on one day only (issue 26)', async () => {
    for (const [i, subject] of [
      'Pre-alert NGM-2026-0412',
      'Invoice NGM-2026-0513',
      'POD NGM-2026-0514',
    ].entries())
      await seen(mail({ from: { address: `s${i}@x.example`, name: '' }, subject }), 'northgate');
    noFamily(await suggestFor(onBehalf('NGM-2026-0777')), 'NGM-2026-0777', 'NGM-####-####');
  });

  it('offers no family from one sender in one thread, however many days (issue 26)', async () => {
    const desk = { address: 'desk@northgatemotors.example', name: '' };
    for (const day of ['2026-09-01', '2026-09-02', '2026-09-03'])
      await seen(mail({ from: desk, subject: 'Re: Weekly NGM-2026-0412' }), 'northgate', day);
    noFamily(await suggestFor(onBehalf('NGM-2026-0777')), 'NGM-2026-0777', 'NGM-####-####');
  });

  it('offers no family that undecided mail carries from a sender whose mail is another customer’s (issue 26)', async () => {
    await seen(mail({ subject: 'Pre-alert NGM-2026-0412' }), 'northgate');
    await seen(mail({ subject: 'Invoice NGM-2026-0513' }), 'northgate', '2026-09-02');
    await seen(mail({ subject: 'POD NGM-2026-0514' }), 'northgate', '2026-09-03');
    const gulf = { address: 'ops@gulftrade.example', name: '' };
    await seen(mail({ from: gulf, subject: 'Booking' }), 'gulftrade');
    await seen(mail({ from: gulf, subject: 'Shipment NGM-2026-0600' }), null, '2026-09-04');
    noFamily(await suggestFor(onBehalf('NGM-2026-0777')), 'NGM-2026-0777', 'NGM-####-####');
  });

  it('offers neither the family nor the reference taken whole when only one message carries the family (issue 39: a reference never recurs)', async () => {
    await seen(mail({ subject: 'Pre-alert NGM-2026-0412' }), 'northgate');
    noFamily(await suggestFor(onBehalf('NGM-2026-0777')), 'NGM-2026-0777', 'NGM-####-####');
  });

  it('never suggests a series seen with two customers (a platform’s bills)', async () => {
    await seen(mail({ subject: 'Bill HBL/2026/00412' }), 'northgate');
    await seen(mail({ subject: 'Bill HBL/2026/00413' }), 'northgate');
    await seen(mail({ subject: 'Bill HBL/2026/00414' }), 'gulftrade');
    noFamily(await suggestFor(onBehalf('HBL/2026/00999')), 'HBL/2026/00999', 'HBL/####/#####');
  });

  it('never offers a family that would re-route a message settled as someone else (the dry run, §8)', async () => {
    await seen(mail({ subject: 'Pre-alert NGM-2026-0412' }), 'northgate');
    await seen(mail({ subject: 'Invoice NGM-2026-0513' }), 'northgate');
    await seen(mail({ subject: 'Query NGM-2026-0600' }), 'alhamra');
    noFamily(await suggestFor(onBehalf('NGM-2026-0777')), 'NGM-2026-0777', 'NGM-####-####');
  });

  it('has no family for a reference that starts with a year or a number', async () => {
    await seen(mail({ subject: 'Pre-alert 2026-NGM-0412' }), 'northgate');
    await seen(mail({ subject: 'Invoice 2026-NGM-0513' }), 'northgate');
    const o = await suggestFor(onBehalf('2026-NGM-0777'));
    expect('none' in o && o.none).not.toContain('references shaped');
    expect('none' in o && o.none).toContain("I won't suggest the reference 2026-NGM-0777 taken whole");
  });
});

describe('senders who write for others (issue 14)', () => {
  it('never suggests an address already read as two customers, and says it is a forwarder', async () => {
    const lena = { address: 'lena@harbour-agents.example', name: 'Lena' };
    await seen(mail({ from: lena, subject: 'Shipment one' }), 'northgate');
    await seen(mail({ from: lena, subject: 'Shipment two' }), 'gulftrade');
    const o = await suggestFor(mail({ from: lena, subject: 'Shipment three' }));
    expect('none' in o && o.none).toContain(
      'mail from lena@harbour-agents.example has already been read as Northgate Motors Ltd and Gulftrade: it writes for others (a forwarder)',
    );
  });

  it('never suggests a first-sight address whose domain is not named like the customer its mail names', async () => {
    const tom = { address: 'tom.novak@seamark1.example', name: '' };
    const o = await suggestFor(mail({ from: tom, body: 'Details for our shipment (Al Hamra Trading).' }));
    expect('suggestion' in o && o.suggestion.suggestionLabel).toBe(
      'the name "Al Hamra Trading" anywhere in the message (here in the body)',
    );
    expect(JSON.stringify(o)).not.toContain('seamark1');
    // Its own staff, at a domain named like it, still get their address suggested.
    const own = { address: 'rana@alhamra-trading.example', name: '' };
    const s = expectSuggestion(
      await suggestFor(mail({ from: own, body: 'Our shipment (Al Hamra Trading).' })),
    );
    expect(s.suggestionLabel).toBe(
      'the address this message came from (first message from this address; its domain is named like Al Hamra Trading)',
    );
  });

  it('never suggests the address of a desk writing for one of two sibling companies', async () => {
    const lessons: TestLesson[] = [
      ...directory,
      { collection: 'customers', entry: 'acme', value: { label: 'Acme Trading' } },
      { collection: 'customers', entry: 'acmecon', value: { label: 'Acme Trading & Contracting' } },
    ];
    const desk = { address: 'desk@acmetradinggroup.example', name: '' };
    const longer = await suggestFor(
      mail({ from: desk, body: 'For Acme Trading & Contracting, 3 pieces' }),
      lessons,
    );
    expect(expectSuggestion(longer).suggestionLabel).toBe(
      'the name "Acme Trading & Contracting" anywhere in the message (here in the body)',
    );
    const shorter = await suggestFor(mail({ from: desk, body: 'For Acme Trading, 3 pieces' }), lessons);
    expect('none' in shorter && shorter.none).toContain(
      "I won't suggest the sender's address, because the message names Acme Trading, whose name nests with Acme Trading & Contracting's, so one desk may write for both",
    );
  });

  it('labels a first-sight address with what is known: its domain is named like one customer', async () => {
    const s = expectSuggestion(
      await suggestFor(mail({ from: { address: 'omar@gulftrade-lines.example', name: '' } })),
    );
    expect(s.suggestionLabel).toBe(
      'the address this message came from (first message from this address; its domain is named like Gulftrade)',
    );
  });

  it('offers a first-sight address at a domain named like no customer only as what it is (Appendix B)', async () => {
    const s = expectSuggestion(
      await suggestFor(
        mail({
          from: { address: 'tom.novak@seamark1.example', name: '' },
          body: 'Details for shipment, 3 pieces.',
        }),
      ),
    );
    expect(s.suggestionLabel).toBe('the address this message came from (first message from this address)');
    expect(s.forEntry).toBeUndefined();
  });

  it('offers an address again as its customer’s when all its mail was that customer’s and it is named like it, never a forwarder’s person', async () => {
    const rana = { address: 'rana@alhamra-trading.example', name: '' };
    await seen(mail({ from: rana, subject: 'Shipment one' }), 'alhamra');
    const s = expectSuggestion(await suggestFor(mail({ from: rana, subject: 'Shipment two' })));
    expect(s.forEntry).toBe('alhamra');
    expect(s.suggestionLabel).toBe(
      'the address this message came from (1 earlier message from it, all Al Hamra Trading; its domain is named like Al Hamra Trading), as in a message already read as Al Hamra Trading',
    );
    const tom = { address: 'tom.novak@seamark1.example', name: '' };
    await seen(mail({ from: tom, subject: 'Shipment one' }), 'alhamra');
    const o = await suggestFor(mail({ from: tom, subject: 'Shipment two' }));
    expect('none' in o && o.none).toContain(
      "I won't suggest the sender's address, because mail from tom.novak@seamark1.example has already been read as Al Hamra Trading",
    );
  });

  it('names a taught sender mark and its one-lesson revert when a person answers for another customer', () => {
    const lessons: TestLesson[] = [
      ...directory,
      {
        collection: 'customers',
        entry: 'northgate',
        value: { pattern: 'lena@harbour-agents\\.example', where: 'from' },
      },
    ];
    const m = mail({
      from: { address: 'lena@harbour-agents.example', name: '' },
      subject: 'Booking GTS-2026-00412',
    });
    const { reading } = readFor(m, lessons);
    const decided = customers.reader!.decided!(reading.readings.get('customers')!, {
      entry: 'gulftrade',
      answeredBy: 'dana',
      at: '2026-09-01T00:00:00.000Z',
    });
    const notes = (decided.report as { notes?: string[] }).notes ?? [];
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(
      /^The sender's address matched Northgate Motors Ltd's mark .*, taught by .* in activation \d+, but this message was answered as Gulftrade's: the sender writes for others\. If that mark should not give Northgate Motors Ltd away, revert activation \d+, which takes back that one lesson\.$/,
    );
  });
});

describe('evidence that disagrees (issue 14)', () => {
  const sender = { address: 'ops@fw-desk.example', name: 'FW Desk' };
  const lessons: TestLesson[] = [
    ...directory,
    {
      collection: 'customers',
      entry: 'northgate',
      value: { pattern: 'ops@fw-desk\\.example', where: 'from' },
    },
    { collection: 'customers', entry: 'northgate', value: { pattern: '@fw-desk\\.example', where: 'from' } },
    { collection: 'customers', entry: 'northgate', value: { pattern: 'FW Desk', where: 'from' } },
  ];

  it('asks, naming both, when the sender says one customer and a reference in the text another', () => {
    // Three sender marks against one reference: the margin alone would settle on Northgate.
    const r = customerReport(mail({ from: sender, subject: 'Booking GTS-2026-00412' }), lessons);
    expect(r.settled).toBe(false);
    expect(r.reads).toBe(
      "Northgate Motors Ltd matches on the sender's address, but Gulftrade matches on the subject, which says more about whose shipment it is than the sender does; the evidence disagrees, so I ask.",
    );
  });

  it('still settles on the sender when the text names nobody else', () => {
    const r = customerReport(mail({ from: sender, subject: 'Booking' }), lessons);
    expect(r).toMatchObject({ settled: true, winner: 'northgate' });
  });
});

describe('a name inside a sibling’s name (issue 14)', () => {
  const siblings: TestLesson[] = [
    ...directory,
    { collection: 'customers', entry: 'acme', value: { label: 'Acme Trading' } },
    { collection: 'customers', entry: 'acme', value: { pattern: '\\bAcme Trading\\b', where: 'body' } },
    { collection: 'customers', entry: 'acmecon', value: { label: 'Acme Trading & Contracting' } },
  ];
  const desk = { address: 'group@acme-group.example', name: '' };

  it('does not let a name mark settle the sibling whose name holds it', () => {
    const sib = customerReport(
      mail({ from: desk, body: 'For Acme Trading & Contracting, 3 pieces' }),
      siblings,
    );
    expect(sib.settled).toBe(false);
    const own = customerReport(mail({ from: desk, body: 'For Acme Trading, 3 pieces' }), siblings);
    expect(own).toMatchObject({ settled: true, winner: 'acme' });
  });

  it('suggests the longer name for the sibling, and never the shorter name that sits inside it', async () => {
    const forwarded = { isForward: true, subject: 'Fwd: shipment' };
    const longer = expectSuggestion(
      await suggestFor(
        mail({ ...forwarded, from: desk, body: 'For Acme Trading & Contracting, 3 pieces' }),
        siblings.slice(0, -2).concat(siblings.slice(-1)),
      ),
    );
    expect(longer.suggestionLabel).toBe(
      'the name "Acme Trading & Contracting" anywhere in the message (here in the body)',
    );
    const o = await suggestFor(mail({ ...forwarded, from: desk, body: 'For Acme Trading, 3 pieces' }), [
      ...directory,
      { collection: 'customers', entry: 'acme', value: { label: 'Acme Trading' } },
      { collection: 'customers', entry: 'acmecon', value: { label: 'Acme Trading & Contracting' } },
    ]);
    expect('none' in o && o.none).toContain(
      'the name "Acme Trading" is inside Acme Trading & Contracting\'s name, so a name mark would claim Acme Trading & Contracting\'s mail',
    );
  });
});

describe('weak evidence against the new text (issue 14)', () => {
  const lena = { address: 'lena.jensen@cargolinx2.example', name: '' };
  const senderMark: TestLesson[] = [
    ...directory,
    {
      collection: 'customers',
      entry: 'northgate',
      value: { pattern: 'lena\\.jensen@cargolinx2\\.example', where: 'from' },
    },
  ];

  it('asks, naming both, when only the sender’s address says one customer and the new text names another', () => {
    const r = customerReport(
      mail({ from: lena, subject: 'Shipment', body: 'Details for our shipment (Al Hamra Trading).' }),
      senderMark,
    );
    expect(r.settled).toBe(false);
    expect(r.winner).toBeUndefined();
    expect(r.reads).toBe(
      "Northgate Motors Ltd matches only on the sender's address, but the body names Al Hamra Trading, which says more about whose shipment it is; the evidence disagrees.",
    );
    expect(r.candidates.map((c) => c.name)).toContain('northgate');
  });

  it('still settles on the sender when the new text names that customer, or names another only in quoted text', () => {
    const own = customerReport(
      mail({ from: lena, body: 'Details for our shipment (Northgate Motors Ltd).' }),
      senderMark,
    );
    expect(own).toMatchObject({ settled: true, winner: 'northgate' });
    const quoted = customerReport(
      mail({
        from: lena,
        isReply: true,
        subject: 'Re: shipment',
        body: 'Thanks, noted.\n\nOn Mon, 7 Sep 2026 at 10:02, ops@x.example wrote:\n> For Al Hamra Trading, 3 pieces',
      }),
      senderMark,
    );
    expect(quoted).toMatchObject({ settled: true, winner: 'northgate' });
  });

  const family: TestLesson[] = [
    ...directory,
    { collection: 'customers', entry: 'alhamra', value: { pattern: 'ALH-\\d{4}-\\d{4}', where: 'subject' } },
  ];
  const thread = { isReply: true, subject: 'Re: Pre-alert ALH-2026-0412' };

  it('asks when a reply settles only on its inherited subject and its new text gives a reference none of those marks match (a hijacked thread)', () => {
    const r = customerReport(
      mail({ ...thread, body: 'Please find the details for our shipment NVM-2026-3301.' }),
      family,
    );
    expect(r.settled).toBe(false);
    expect(r.reads).toBe(
      "Al Hamra Trading matches only on the subject, which was inherited from an earlier mail, and the new text gives NVM-2026-3301, which none of Al Hamra Trading's marks match: the reply may be about another customer's shipment.",
    );
  });

  it('settles a reply on its inherited subject when the new text’s reference is the same customer’s, or none is given', () => {
    for (const body of ['Please find the details for our shipment ALH-2026-0588.', 'Thanks, noted.'])
      expect(customerReport(mail({ ...thread, body }), family), body).toMatchObject({
        settled: true,
        winner: 'alhamra',
      });
    // The same subject on a message that is not a reply is new text: it settles.
    const fresh = customerReport(
      mail({ subject: 'Pre-alert ALH-2026-0412', body: 'Details for shipment NVM-2026-3301.' }),
      family,
    );
    expect(fresh).toMatchObject({ settled: true, winner: 'alhamra' });
  });

  it('asks when a reply settles only on its inherited subject and the new text names another customer', () => {
    const r = customerReport(mail({ ...thread, body: 'For Northgate Motors Ltd, 3 pieces.' }), family);
    expect(r.settled).toBe(false);
    expect(r.reads).toContain('but the body names Northgate Motors Ltd');
  });
});
