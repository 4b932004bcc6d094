// Invariant (scope traps): a suggestion is never wider than the evidence it was drawn from (§8, §13.1); the post's PA-2026-0901 first.
import { describe, expect, it } from 'vitest';
import { mail, type TestLesson } from '../support/definitions.ts';
import { clientNamed } from '../../src/domain/learnables/index.ts';
import {
  customers,
  directory,
  expectSuggestion,
  kinds,
  matcherOf,
  settings,
  seen,
  suggestFor,
  useCorpus,
} from '../support/suggest-corpus.ts';

useCorpus();

const forwarder = { address: 'ops@fastfreight-forwarding.example', name: 'FastFreight Ops' };

describe('scope traps (§8, §13.1)', () => {
  it('offers no part of the post’s reference PA-2026-0901, and not the reference taken whole: it would settle nothing later (§8, issue 39)', async () => {
    for (const ref of ['PA-2026-0901', 'HBL/2026/00412/A']) {
      const m = mail({
        from: forwarder,
        subject: `Pre-alert ${ref}`,
        body: 'On behalf of our client, please find the details.',
      });
      const o = await suggestFor(m);
      if (!('none' in o)) throw new Error(`offered ${o.suggestion.suggestionLabel}`);
      expect(o.none).toContain(
        `I won't suggest the reference ${ref} taken whole: a shipment's reference is on that shipment's mail only, so it would settle nothing that comes later`,
      );
    }
    const o = await suggestFor(mail({ from: { address: 'ops@northgatemotors.example', name: '' } }));
    expect(o).toEqual({ none: 'The message is already settled; there is nothing to teach.' });
  });

  it('never suggests a first-sight free-mail sender, neither its address nor its domain (issue 14)', async () => {
    const m = mail({
      from: { address: 'dana.northvale7@gmail.com', name: 'Dana' },
      subject: 'Shipment details',
    });
    const o = await suggestFor(m);
    expect('none' in o && o.none).toContain(
      "I won't suggest the sender's address: nothing decided comes from it yet, and its domain (gmail.com) is free-mail or shared by many senders, and the address is named like no customer",
    );
  });

  it('suggests a first-sight address at a domain named like a customer by its whole address, escaped', async () => {
    const m = mail({ from: { address: 'dana.b@alhamra-trading.example', name: 'Dana' } });
    const s = expectSuggestion(await suggestFor(m));
    expect(s.suggestionLabel).toBe(
      'the address this message came from (first message from this address; its domain is named like Al Hamra Trading)',
    );
    const hits = matcherOf(s);
    expect(hits(m)).toBe(true);
    for (const other of [
      'someone.else@alhamra-trading.example',
      'dana.b@alhamra-trading.example.evil.example',
      'xdana.b@alhamra-trading.example',
      'dana.b@alhamra-tradingXexample',
      'danaxb@alhamra-trading.example',
    ])
      expect(hits(mail({ from: { address: other, name: '' } })), other).toBe(false);
  });

  it('never gives a forwarder’s address to the client it writes for ("on behalf of")', async () => {
    const m = mail({
      from: forwarder,
      subject: 'Shipment details',
      body: 'Hello team,\nOn behalf of our client Northvale Motors Ltd, please find the details.\nRegards',
    });
    const s = expectSuggestion(await suggestFor(m));
    const hits = matcherOf(s);
    // Same forwarder, another client: the suggestion must not claim it.
    expect(
      hits(mail({ from: forwarder, body: 'On behalf of our client Gulfstar Foods LLC, details attached.' })),
    ).toBe(false);
    expect(s.suggestionLabel).toBe('the client the body names ("Northvale Motors Ltd")');
  });

  it.each([
    [
      'German',
      'Im Auftrag unseres Kunden Brandt Maschinenbau GmbH senden wir Ihnen die Daten.',
      'Brandt Maschinenbau GmbH',
    ],
    [
      'French',
      'Nous vous écrivons de la part de notre client Société Lumière, voici les détails.',
      'Société Lumière',
    ],
    ['Arabic', 'نيابة عن شركة الحمراء للتجارة، نرسل لكم التفاصيل.', 'شركة الحمراء للتجارة'],
    [
      'English, for a client',
      'We write for our client Velmar Textiles regarding the shipment.',
      'Velmar Textiles',
    ],
  ])(
    'never gives a forwarder’s address when the text says it writes for a client (%s)',
    async (_lang, body, client) => {
      const m = mail({ from: forwarder, subject: 'Shipment', body });
      const o = await suggestFor(m);
      const s = expectSuggestion(o);
      expect(s.suggestionLabel).toBe(`the client the body names ("${client}")`);
      expect(matcherOf(s)(m)).toBe(true);
      expect(matcherOf(s)(mail({ from: forwarder, body: 'Another client entirely.' }))).toBe(false);
    },
  );

  it('never gives a no-reply or platform sender’s address', async () => {
    for (const from of [
      { address: 'noreply@bookings.cargoportal.example', name: 'CargoPortal' },
      { address: 'notifications@track.shiplink.example', name: 'ShipLink' },
    ]) {
      const m = mail({ from, subject: 'Booking confirmation' });
      const o = await suggestFor(m);
      expect('none' in o ? o.none : '').toContain('no-reply or platform address');
    }
    const automated = mail({
      from: { address: 'bookings@cargoportal.example', name: '' },
      isAutomated: true,
      subject: 'Booking PA-2026-0901',
    });
    const o = await suggestFor(automated);
    expect('none' in o && o.none).toContain('sends automated mail');
    expect('none' in o && o.none).toContain("I won't suggest the reference PA-2026-0901 taken whole");
  });

  it('never gives the address of a forwarded message’s sender', async () => {
    const m = mail({
      from: { address: 'colleague@forwarder.example', name: '' },
      isForward: true,
      subject: 'Fwd: shipment',
    });
    const o = await suggestFor(m);
    expect('none' in o && o.none).toContain('forward');
  });

  it('never gives an address already taught to another customer', async () => {
    // The address gives away Northgate; the body carries Gulftrade's reference: a tie, unsettled.
    const m = mail({
      from: { address: 'ops@northgatemotors.example', name: '' },
      subject: 'Shipment',
      body: 'Shipment GTS-2026-00412, pallet PLT-2026-7788',
    });
    const tie = await suggestFor(m);
    expect('none' in tie && tie.none).toContain(
      "I won't suggest the sender's address, because the sender's address already gives away Northgate Motors Ltd",
    );
    expect('none' in tie && tie.none).toContain(
      "I won't suggest the references GTS-2026-00412 and PLT-2026-7788 taken whole",
    );
    const none = await suggestFor(
      mail({ from: m.from, subject: 'Shipment', body: 'Shipment GTS-2026-00412' }),
    );
    expect('none' in none && none.none).toContain(
      "I won't suggest the sender's address, because the sender's address already gives away Northgate Motors Ltd",
    );
  });

  it('never suggests what matches messages the corpus read as two different customers', async () => {
    const sender = { address: 'desk@sharedbroker.example', name: '' };
    await seen(mail({ from: sender, subject: 'Pre-alert PAX-2026-0901' }), 'gulftrade');
    await seen(
      mail({ from: { address: 'desk2@sharedbroker.example', name: '' }, subject: 'Re: PAX-2026-0901' }),
      'northgate',
    );
    const m = mail({ from: sender, subject: 'Pre-alert PAX-2026-0901', body: 'details' });
    const o = await suggestFor(m);
    expect('none' in o && o.none).toContain('already been read as Gulftrade');
    expect('none' in o && o.none).toContain(
      'references shaped PAX-####-#### in the subject also matches messages already read (1 as Gulftrade and 1 as Northgate Motors Ltd)',
    );
  });

  it('offers evidence that matches one customer’s mail only as that customer’s, and never a broker’s address or domain', async () => {
    const sender = { address: 'desk@sharedbroker.example', name: '' };
    const earlier = mail({ from: sender, subject: 'Pre-alert', body: 'Shipment for Al Hamra Trading' });
    await seen(earlier, 'alhamra');
    const m = mail({ from: sender, subject: 'Customs', body: 'Customs query for Al Hamra Trading' });
    const s = expectSuggestion(await suggestFor(m));
    expect(s.forEntry).toBe('alhamra');
    expect(s.suggestionLabel).toBe(
      'the name "Al Hamra Trading" anywhere in the message (here in the body), as in a message already read as Al Hamra Trading',
    );
    const hits = matcherOf(s);
    expect(hits(earlier)).toBe(true);
    expect(hits(mail({ from: sender, subject: 'Pre-alert', body: 'Shipment for Gulftrade' }))).toBe(false);
  });

  it('suggests a customer’s own domain for new staff, only when all its mail was that customer’s', async () => {
    const staff = (local: string) => ({ address: `${local}@gulftrade-shipping.example`, name: '' });
    await seen(mail({ from: staff('karim'), subject: 'Invoice 1' }), 'gulftrade');
    // Issue 14: one message says nothing about what recurs; the address is offered instead.
    const once = expectSuggestion(await suggestFor(mail({ from: staff('lena'), subject: 'Shipment' })));
    expect(once.suggestionLabel).toBe(
      'the address this message came from (first message from this address; its domain is named like Gulftrade)',
    );
    // Issue 26: two messages could be a coincidence; a third, on another day, earns the domain.
    await seen(mail({ from: staff('ana'), subject: 'Invoice 2' }), 'gulftrade', '2026-09-02');
    const twice = expectSuggestion(await suggestFor(mail({ from: staff('lena'), subject: 'Shipment' })));
    expect(twice.forEntry).toBeUndefined();
    await seen(mail({ from: staff('rafi'), subject: 'Invoice 3' }), 'gulftrade', '2026-09-03');
    const m = mail({ from: staff('lena'), subject: 'Shipment' });
    const s = expectSuggestion(await suggestFor(m));
    expect(s.forEntry).toBe('gulftrade');
    expect(s.suggestionLabel).toBe(
      'the domain this message came from (@gulftrade-shipping.example), on 3 messages already read, all Gulftrade',
    );
    const hits = matcherOf(s);
    expect(hits(mail({ from: staff('omar') }))).toBe(true);
    for (const other of [
      'x@gulftrade-shipping.example.evil.example',
      'x@gulftrade-shipping.examples',
      'x@other.example',
      'x@mail-gulftrade-shipping.example',
    ])
      expect(hits(mail({ from: { address: other, name: '' } })), other).toBe(false);
    // Once the domain's mail has been read as two customers, it is nobody's.
    await seen(mail({ from: staff('sam'), subject: 'For Northgate' }), 'northgate');
    const o = await suggestFor(mail({ from: staff('tom'), subject: 'Shipment' }));
    expect(expectSuggestion(o).suggestionLabel).toBe(
      'the address this message came from (first message from this address; its domain is named like Gulftrade)',
    );
  });

  it('never offers a domain named like two sibling companies, even when all its mail so far was one’s (issue 26)', async () => {
    const siblings: TestLesson[] = [
      ...directory,
      { collection: 'customers', entry: 'silkimports', value: { label: 'Silkroad Imports Ltd' } },
      { collection: 'customers', entry: 'silkceramics', value: { label: 'Silkroad Ceramics' } },
    ];
    const staff = (local: string) => ({ address: `${local}@silkroad.example`, name: '' });
    for (const [i, day] of ['2026-09-01', '2026-09-02', '2026-09-03'].entries())
      await seen(mail({ from: staff(`s${i}`), subject: `Booking ${i}` }), 'silkimports', day);
    const s = expectSuggestion(await suggestFor(mail({ from: staff('new'), subject: 'Shipment' }), siblings));
    expect(s.suggestionLabel).not.toMatch(/^the domain/);
    expect(s.forEntry).toBeUndefined();
  });

  it('offers the own domain, never the address, when that address’s mail was already read as the same customer', async () => {
    const karim = { address: 'karim@gulftrade-shipping.example', name: '' };
    await seen(mail({ from: karim, subject: 'Booking 1', body: 'for Gulftrade' }), 'gulftrade');
    await seen(mail({ from: karim, subject: 'Booking 2', body: 'again' }), 'gulftrade', '2026-09-02');
    await seen(mail({ from: karim, subject: 'Booking 3', body: 'and again' }), 'gulftrade', '2026-09-03');
    const s = expectSuggestion(await suggestFor(mail({ from: karim, subject: 'Shipment' })));
    expect(s.suggestionLabel).toMatch(/^the domain this message came from/);
    expect(s.forEntry).toBe('gulftrade');
  });

  it('never suggests a free-mail domain, even when all its mail so far was one customer’s', async () => {
    await seen(mail({ from: { address: 'karim.gulftrade@gmail.com', name: '' } }), 'gulftrade');
    const s = expectSuggestion(
      await suggestFor(mail({ from: { address: 'lena.gulftrade@gmail.com', name: '' } })),
    );
    // At free-mail only the whole address, and only because it is named like the customer.
    expect(s.suggestionLabel).toBe(
      'the address this message came from (first message from this address; the address is named like Gulftrade)',
    );
    expect(matcherOf(s)(mail({ from: { address: 'karim.gulftrade@gmail.com', name: '' } }))).toBe(false);
  });

  it('never suggests what matches most of the corpus', async () => {
    for (let i = 0; i < 30; i++)
      await seen(
        mail({
          from: { address: `x${i}@a.example`, name: '' },
          subject: `Weekly run RUN-2026-0001 part ${i}`,
        }),
      );
    const m = mail({
      from: forwarder,
      subject: 'Weekly run RUN-2026-0001',
      body: 'On behalf of our client, see the run.',
    });
    const o = await suggestFor(m);
    expect('none' in o && o.none).toContain('matches 30 of the 30 messages seen');
  });

  it('offers keys only from the learnable’s declared lesson fields (§8)', async () => {
    const names = new Set(customers.descriptor(settings).lessonFields.map((f) => f.name));
    for (const m of [
      mail({ from: { address: 'a@alhamra.example', name: '' } }),
      mail({ from: forwarder, subject: 'Shipment', body: 'Shipment for Al Hamra Trading' }),
      mail({ from: forwarder, body: 'On behalf of our client Northvale Motors Ltd, hi' }),
    ]) {
      const s = expectSuggestion(await suggestFor(m));
      expect(Object.keys(s.value).every((k) => names.has(k))).toBe(true);
    }
  });

  it('says why when there is nothing narrow enough to suggest', async () => {
    const m = mail({ from: forwarder, subject: 'Shipment', body: 'On behalf of our client, see below.' });
    const o = await suggestFor(m);
    expect('none' in o && o.none).toMatch(
      /^No suggestion: I won't suggest the sender's address, because the text says it is written for someone else \("On behalf of"\); I found no customer name, sender or reference family/,
    );
  });

  it('suggests the name of a known customer the message names, when the sender writes for others', async () => {
    const m = mail({
      from: forwarder,
      isForward: true,
      subject: 'Fwd: details',
      body: 'Shipment for Al Hamra Trading, pieces 3',
    });
    const s = expectSuggestion(await suggestFor(m));
    expect(s.suggestionLabel).toBe('the name "Al Hamra Trading" anywhere in the message (here in the body)');
    // Issue 49: a customer's own full name is looked for in any part, as a careful person types it.
    expect(s.value).toMatchObject({ where: 'any' });
    const hits = matcherOf(s);
    expect(hits(mail({ subject: 'Pre-alert for Al Hamra Trading' }))).toBe(true);
    expect(hits(mail({ body: 'For Al Hamra Trading: 2 pallets' }))).toBe(true);
  });

  it('offers no name that mail already read as another customer carries (issue 49)', async () => {
    await seen(mail({ subject: 'x', body: 'Consignee: Al Hamra Trading' }), 'gulftrade');
    const o = await suggestFor(
      mail({
        from: forwarder,
        isForward: true,
        subject: 'Fwd: details',
        body: 'Shipment for Al Hamra Trading',
      }),
    );
    expect(JSON.stringify(o)).toContain(
      'the name \\"Al Hamra Trading\\" anywhere in the message (here in the body) also matches messages already read (1 as Gulftrade)',
    );
  });

  it('never offers text an existing mark already matched for another customer (a tie)', async () => {
    // Gulftrade's staff writes about Al Hamra's shipment: the reference gives away Gulftrade's rival.
    const lessons = [
      ...directory,
      { collection: 'customers', entry: 'alhamra', value: { pattern: 'AHT/\\d{4}/\\d{4}', where: 'any' } },
      {
        collection: 'customers',
        entry: 'gulftrade',
        value: { pattern: 'r\\.fernandes@gulftrade\\.example', where: 'from' },
      },
    ];
    const m = mail({
      from: { address: 'r.fernandes@gulftrade.example', name: '' },
      subject: 'RE: Shared container AHT/2026/0391',
    });
    const o = await suggestFor(m, lessons);
    expect('none' in o && o.none).toContain(
      'references shaped AHT/####/#### in the subject already gives away Al Hamra Trading',
    );
  });

  it('offers nothing for a settled reading', async () => {
    const o = await suggestFor(mail({ from: { address: 'ops@northgatemotors.example', name: '' } }));
    expect(o).toEqual({ none: 'The message is already settled; there is nothing to teach.' });
  });
});

describe('kinds suggestions', () => {
  /** Two messages already answered as `kind`, each carrying `subject` or `body` (issue 49: a cue must recur). */
  async function answeredTwice(kind: string, text: { subject?: string; body?: string }): Promise<void> {
    for (const n of [1, 2])
      await seen(mail({ subject: `Earlier ${n}`, ...text, messageId: `<earlier-${kind}-${n}@x>` }), {
        kinds: kind,
      });
  }

  it('suggests the subject words before the reference, whole and bounded', async () => {
    await answeredTwice('booking', { subject: 'Booking confirmation HBL/2026/00399/A' });
    const m = mail({ subject: 'RE: Booking confirmation HBL/2026/00412/A' });
    const s = expectSuggestion(await suggestFor(m, directory, 'kinds'));
    expect(s.suggestionLabel).toBe(
      'the words "Booking confirmation" in the subject, as in 2 messages already read as booking',
    );
    const hits = matcherOf(s, kinds);
    expect(hits(mail({ subject: 'Booking confirmation for X' }))).toBe(true);
    expect(hits(mail({ subject: 'Booking confirmations' }))).toBe(false);
  });

  it("offers a reply's new-text words, in the body, when its inherited subject is the earlier mail's (issue 39)", async () => {
    await answeredTwice('customs-query', { body: 'Customs have a query on this one.' });
    const m = mail({
      subject: 'Re: Booking confirmation HBL/2026/00412/A',
      isReply: true,
      body: 'Hello team,\nCustoms have a query on NGM-2026-5120.\nDana',
    });
    const s = expectSuggestion(await suggestFor(m, directory, 'kinds'));
    expect(s.value).toEqual({ cue: 'Customs have a query', where: 'body' });
    expect(s.suggestionLabel).toBe(
      'the words "Customs have a query" in the body, as in 2 messages already read as customs-query',
    );
  });

  it('offers no cue for a long subject about one message', async () => {
    const o = await suggestFor(
      mail({ subject: 'Our warehouse team will be closed next Friday afternoon' }),
      directory,
      'kinds',
    );
    expect('none' in o).toBe(true);
    await answeredTwice('digest', { subject: 'Weekly digest: freight ' });
    const s = expectSuggestion(
      await suggestFor(mail({ subject: 'Weekly digest: rates ease, Red Sea update' }), directory, 'kinds'),
    );
    expect(s.suggestionLabel).toBe(
      'the words "Weekly digest" in the subject, as in 2 messages already read as digest',
    );
  });

  it('offers no words seen in one message only: a vessel, a town (issue 49)', async () => {
    await seen(mail({ subject: 'Pre-alert - MAERSK ESSEN' }), { kinds: 'pre-alert' });
    const o = await suggestFor(mail({ subject: 'MAERSK ESSEN - ETA 12/10' }), directory, 'kinds');
    if (!('none' in o)) throw new Error(`offered ${JSON.stringify(o.suggestion.value)}`);
    expect(o.none).toContain(
      '"MAERSK ESSEN" in the subject is on only 1 message already read, fewer than the 2',
    );
  });

  it('offers no words every kind uses, and tolerates fewer than one message of another kind in ten (issue 49)', async () => {
    await answeredTwice('pre-alert', { subject: 'Shipment details' });
    await seen(mail({ subject: 'Shipment details' }), { kinds: 'proof-of-delivery' });
    const common = await suggestFor(mail({ subject: 'Shipment details - 4410' }), directory, 'kinds');
    if (!('none' in common)) throw new Error(`offered ${JSON.stringify(common.suggestion.value)}`);
    expect(common.none).toContain(
      '"Shipment details" in the subject is common in mail of more than one kind of message (2 as pre-alert and 1 as proof-of-delivery)',
    );
    for (let n = 3; n <= 10; n++) await seen(mail({ subject: 'Shipment details' }), { kinds: 'pre-alert' });
    const s = expectSuggestion(
      await suggestFor(mail({ subject: 'Shipment details - 4410' }), directory, 'kinds'),
    );
    expect(s.value).toEqual({ cue: 'Shipment details', where: 'subject' });
    expect(s.forEntry).toBe('pre-alert');
  });

  it('offers none when the subject is only a reference', async () => {
    const o = await suggestFor(mail({ subject: 'PA-2026-0901' }), directory, 'kinds');
    expect('none' in o).toBe(true);
  });
});

describe('clientNamed', () => {
  it('takes the client name after an on-behalf phrase, and nothing when none is given', () => {
    expect(clientNamed('On behalf of our client Northvale Motors Ltd, please find')).toBe(
      'Northvale Motors Ltd',
    );
    expect(clientNamed('on behalf of Gulftrade.')).toBe('Gulftrade');
    expect(clientNamed('On behalf of our client, please find')).toBeNull();
    expect(clientNamed('on behalf of the warehouse team')).toBeNull();
  });
});
