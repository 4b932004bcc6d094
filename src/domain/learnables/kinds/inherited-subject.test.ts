// Invariant: an inherited subject is weaker evidence than the new text: a subject cue found in the new text counts only under an inherited subject, and there the new text's kinds outweigh the subject's; a fresh subject is read as before (issue 14, kinds' how).
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
const message = (subject: string): MailMessage => ({ subject, body: '' }) as MailMessage;

describe('the inherited subject (kinds)', () => {
  it('reads a fresh subject by its cues in the subject only', () => {
    const w = weighInheritedSubject({
      message: message('Invoice INV-2026-3310'),
      hits: [hit(INVOICE, 'subject'), hit(POD, 'body')],
    });
    expect(w.hits).toEqual([hit(INVOICE, 'subject')]);
    expect(w.setAside).toEqual([]);
  });

  it('lets the subject stand under an inherited subject when the new text carries no cue', () => {
    const hits = [hit(INVOICE, 'subject')];
    expect(weighInheritedSubject({ message: message('RE: Invoice INV-2026-3310'), hits })).toEqual({
      hits,
      setAside: [],
    });
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

  it('counts only new-text cues in the body or attachments, never in the quoted text', () => {
    const w = weighInheritedSubject({
      message: message('RE: Invoice'),
      hits: [hit(INVOICE, 'subject'), hit(POD, 'quoted')],
    });
    expect(w.setAside).toEqual([]);
  });
});
