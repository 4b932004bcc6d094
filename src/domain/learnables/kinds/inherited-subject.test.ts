// Invariant: an inherited subject is weaker evidence than the new text: a subject cue found in the new text counts only under an inherited subject, there the new text's kinds outweigh the subject's, and a reply's inherited subject alone decides nothing when its new text is about another reference (an acknowledgment's and a forward's stand); a fresh subject naming one kind outranks another kind's cues in the text, two kinds in it still ask (issue 14, issue 28, kinds' how, §6.2).
import { describe, expect, it } from 'vitest';
import type { MailMessage, MailPart } from '../../mail/index.ts';
import type { IndexedMark, MarkHit } from '../learnable.ts';
import { setAsideSentence } from '../set-aside.ts';
import { weighInheritedSubject } from './inherited-subject.ts';

const provenance = { activation: 1, taughtBy: 'person-1', at: '2026-04-01T00:00:00.000Z' };
const cue = (entry: string, mark: string, where: string): IndexedMark => ({
  collection: 'kinds',
  entry,
  source: mark,
  parts: where === 'subject' ? ['subject', 'body'] : [where as MailPart],
  mark,
  where,
  provenance,
});
const INVOICE = cue('invoice', 'invoice', 'subject');
const POD = cue('proof-of-delivery', 'proof of delivery', 'subject');
const hit = (mark: IndexedMark, part: MailPart): MarkHit => ({ mark, part, text: mark.mark });
const message = (subject: string, body = ''): MailMessage => ({ subject, body }) as MailMessage;
/** A reply's new text about another shipment than its subject's, in no cue's words. */
const OTHER_SHIPMENT =
  'Hello team,\nWe would like to book this shipment.\nOur reference NGM-2026-5120.\n\nKind regards,\nDana';

describe('the inherited subject (kinds)', () => {
  it('reads a fresh subject by its cues in the subject only', () => {
    const w = weighInheritedSubject({
      message: message('Invoice INV-2026-3310'),
      hits: [hit(INVOICE, 'subject'), hit(POD, 'body')],
    });
    expect(w.hits).toEqual([hit(INVOICE, 'subject')]);
    expect(w.setAside).toEqual([]);
  });

  it('lets a fresh subject naming one kind outrank another kind taught for the body (issue 28, §6.2)', () => {
    const PRE_ALERT = cue('pre-alert', 'pre-alert', 'subject');
    const POD_BODY = cue('proof-of-delivery', 'POD will follow', 'body');
    const PRE_ALERT_BODY = cue('pre-alert', 'shipment details', 'body');
    const w = weighInheritedSubject({
      message: message('Pre-alert NGM-2026-0901', 'Shipment details attached, the POD will follow.'),
      hits: [hit(PRE_ALERT, 'subject'), hit(POD_BODY, 'body'), hit(PRE_ALERT_BODY, 'body')],
    });
    expect(w.hits).toEqual([hit(PRE_ALERT, 'subject'), hit(PRE_ALERT_BODY, 'body')]);
    expect(w.setAside).toEqual([{ hit: hit(POD_BODY, 'body'), why: 'outranked-by-subject' }]);
    expect(setAsideSentence(w.setAside, (e) => e)).toBe(
      "Set aside: 'POD will follow' (proof-of-delivery), in the text, while the subject the sender wrote names another kind.",
    );
  });

  it('still asks when a fresh subject names two kinds, and reads the text when it names none', () => {
    const POD_BODY = cue('proof-of-delivery', 'POD will follow', 'body');
    const two = [hit(INVOICE, 'subject'), hit(POD, 'subject'), hit(POD_BODY, 'body')];
    expect(weighInheritedSubject({ message: message('Invoice and proof of delivery'), hits: two })).toEqual({
      hits: two,
      setAside: [],
    });
    const none = [hit(POD_BODY, 'body')];
    expect(weighInheritedSubject({ message: message('Shipment NGM-2026-0901'), hits: none })).toEqual({
      hits: none,
      setAside: [],
    });
  });

  it("lets a reply's subject stand when the new text carries no cue and names no other reference", () => {
    const hits = [hit(INVOICE, 'subject')];
    for (const body of ['', 'Thanks, received.\n\nPriya', 'Paid today for INV-2026-3310.'])
      expect(
        weighInheritedSubject({ message: message('RE: Invoice INV-2026-3310', body), hits }),
        body,
      ).toEqual({
        hits,
        setAside: [],
      });
  });

  it('sets aside the subject of a reply about another shipment: alone, it does not decide', () => {
    const hits = [hit(INVOICE, 'subject')];
    const w = weighInheritedSubject({ message: message('RE: Invoice INV-2026-3310', OTHER_SHIPMENT), hits });
    expect(w.hits).toEqual([]);
    expect(w.setAside).toEqual([{ hit: hit(INVOICE, 'subject'), why: 'inherited-subject-alone' }]);
    expect(setAsideSentence(w.setAside, () => 'an invoice')).toBe(
      "Set aside: 'invoice' (an invoice), in a subject inherited from an earlier mail, while the new text is about another reference and carries no cue.",
    );
    // a reference only in the quoted text is not the new text's
    const quotedOnly = 'Thanks.\n\nOn Mon, 7 Sep 2026 at 10:02, a@b.example wrote:\n> NGM-2026-5120';
    expect(
      weighInheritedSubject({ message: message('RE: Invoice INV-2026-3310', quotedOnly), hits }).setAside,
    ).toEqual([]);
  });

  it("sets aside the subject's cue of a kind the new text does not carry, and keeps one it does", () => {
    const w = weighInheritedSubject({
      message: message('AW: Invoice INV-2026-3310'),
      hits: [hit(INVOICE, 'subject'), hit(POD, 'body')],
    });
    expect(w.hits).toEqual([hit(POD, 'body')]);
    expect(w.setAside).toEqual([{ hit: hit(INVOICE, 'subject'), why: 'inherited-subject' }]);
    expect(setAsideSentence(w.setAside, () => 'an invoice')).toBe(
      "Set aside: 'invoice' (an invoice), in a subject inherited from an earlier mail, while the new text says otherwise.",
    );
    const same = weighInheritedSubject({
      message: message('Fwd: Proof of delivery'),
      hits: [hit(POD, 'subject'), hit(POD, 'body')],
    });
    expect(same.setAside).toEqual([]);
  });

  it("lets a forward's subject stand when the new text carries no cue: it passes the earlier mail on", () => {
    const hits = [hit(INVOICE, 'subject')];
    expect(
      weighInheritedSubject({ message: message('Fwd: Invoice INV-2026-3310', OTHER_SHIPMENT), hits }),
    ).toEqual({
      hits,
      setAside: [],
    });
    const replyToForward = weighInheritedSubject({
      message: message('Re: Fwd: Invoice INV-2026-3310', OTHER_SHIPMENT),
      hits,
    });
    expect(replyToForward.setAside.map((s) => s.why)).toEqual(['inherited-subject-alone']);
  });

  it('counts only new-text cues in the body or attachments, never in the quoted text', () => {
    const w = weighInheritedSubject({
      message: message('RE: Invoice'),
      hits: [hit(INVOICE, 'subject'), hit(POD, 'quoted')],
    });
    // the quoted cue is no new text: the subject stands (the quoted hit is the shared rule's to set aside)
    expect(w.setAside).toEqual([]);
  });
});
