// Invariant: the learning world's attachment-only pre-alerts (bench/learning/attachments-world.ts) carry the customer's reference in the attached PDF or XLSX and nowhere else, and the agent's parser finds it there.
import { describe, expect, it } from 'vitest';
import { attachmentOnlyMessage } from '../../bench/learning/attachments-world.ts';
import { createRandom, type Customer, type Sender } from '../../bench/learning/world.ts';
import { partText } from '../../src/domain/mail/index.ts';
import { parseMail } from '../../src/ingest/mail/parse.ts';

const customer: Customer = {
  name: 'c001-norvel',
  label: 'Norvel Motors Ltd',
  domain: 'norvel.example',
  staff: ['dana@norvel.example'],
  refPrefix: 'NORA',
  joinsInWeek: 1,
};
const sender: Sender = { address: 'ops@forwarder-one.example', display: 'Ops', role: 'forwarder' };

describe('attachment-only pre-alerts for the learning world', () => {
  it('puts the reference only in the attached document, where parseMail reads it, for each kind of document', async () => {
    const r = createRandom(7);
    const seen = new Set<string>();
    for (let seq = 0; seq < 12 && seen.size < 3; seq++) {
      const m = attachmentOnlyMessage(r, { week: 2, seq, customer, sender });
      seen.add(m.document);
      const ref = m.narrowest.pattern.replace(/\\/g, '');
      expect(m.raw).not.toContain(ref); // not in any header or the body (the document is base64)
      const parsed = await parseMail(m.raw, { parseTimeoutMs: 120_000 });
      expect(parsed.subject + parsed.body).not.toContain(ref);
      expect(partText(parsed, 'attachments')).toContain(ref);
      expect(parsed.attachments[0]!.note).toBeUndefined();
    }
    expect([...seen].sort()).toEqual(['air-waybill-pdf', 'invoice-pdf', 'manifest-xlsx']);
  });
});
