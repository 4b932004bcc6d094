/**
 * The corpus probe a reader's suggestion asks (§8, §13.1; the `CorpusProbe` port of
 * learnables/reader.ts): how many messages already read would a mark match, and what were they read
 * as in the collection asked about; what has a sender been read as. Marks are confirmed on re2 over
 * the parts they name; a literal hint (text every match contains) lets the store skip messages that
 * cannot match.
 *
 * Owns: evaluating marks over kept messages. Does not own: what is kept (the store) or what is
 * worth suggesting (each learnable's reader).
 */
import RE2 from 're2';
import type { CorpusProbe, SenderHistory } from '../learnables/index.ts';
import { partText, subjectPrefixes } from '../mail/index.ts';
import type { TenantId } from '../tenant.ts';
import { scanCorpus, type CorpusStore, type ReadingSummary } from './corpus.ts';

/** What a collection's last reading settled on; null when unsettled or unknown. */
function settledAs(summary: ReadingSummary | null, collection: string): string | null {
  return summary?.decided.get(collection) ?? null;
}

/** A probe over one tenant's corpus, leaving out the message being asked about (`exceptKey`). */
export function createCorpusProbe(
  store: CorpusStore,
  tenant: TenantId,
  exceptKey: string | null,
): CorpusProbe {
  async function history(
    filter: { fromAddress?: string; fromDomain?: string },
    collection: string,
  ): Promise<SenderHistory> {
    let messages = 0;
    const settled = new Map<string, number>();
    for await (const record of scanCorpus(store, tenant, filter)) {
      if (record.key === exceptKey) continue;
      messages++;
      count(settled, settledAs(record.lastReading, collection));
    }
    return { messages, settled };
  }

  return {
    async total() {
      const n = await store.count(tenant);
      if (exceptKey === null) return n;
      return (await store.get(tenant, exceptKey)) === null ? n : n - 1;
    },

    async matching(marks, collection, options = {}) {
      const compiled = marks.map((m) => ({ re: new RE2(m.source, 'iu'), parts: m.parts }));
      let matches = 0;
      const settled = new Map<string, number>();
      const spread = new Map<string, SpreadSets>();
      const undecided = new Set<string>();
      const scan = options.hint === undefined ? {} : { containing: options.hint };
      for await (const record of scanCorpus(store, tenant, scan)) {
        if (record.key === exceptKey) continue;
        if (!compiled.some((c) => c.parts.some((p) => c.re.test(partText(record.message, p))))) continue;
        matches++;
        const entry = settledAs(record.lastReading, collection);
        count(settled, entry);
        const from = record.message.from?.address ?? '';
        if (entry === null) {
          if (from !== '' && undecided.size < MAX_UNDECIDED_SENDERS) undecided.add(from);
          continue;
        }
        const sets = spread.get(entry) ?? { senders: new Set(), threads: new Set(), days: new Set() };
        spread.set(entry, sets);
        sets.senders.add(from);
        sets.threads.add(subjectPrefixes(record.message.subject).rest.toLowerCase());
        sets.days.add(dayOf(record.message.date, record.seenAt));
      }
      return {
        matches,
        settled,
        spread: new Map(
          [...spread].map(([entry, s]) => [
            entry,
            { senders: s.senders.size, threads: s.threads.size, days: s.days.size },
          ]),
        ),
        undecidedSenders: [...undecided],
      };
    },

    sender(address, collection) {
      return history({ fromAddress: address }, collection);
    },

    domain(domain, collection) {
      return history({ fromDomain: domain }, collection);
    },
  };
}

/** Most undecided senders a probe names (each costs the caller a sender lookup). */
const MAX_UNDECIDED_SENDERS = 5;

interface SpreadSets {
  readonly senders: Set<string>;
  readonly threads: Set<string>;
  readonly days: Set<string>;
}

/** The UTC day a message was sent (its Date header), else the day it was first seen. */
function dayOf(date: string | null, seenAt: string): string {
  const sent = date === null ? NaN : Date.parse(date);
  const t = Number.isNaN(sent) ? Date.parse(seenAt) : sent;
  return Number.isNaN(t) ? '' : new Date(t).toISOString().slice(0, 10);
}

function count(map: Map<string, number>, key: string | null): void {
  if (key !== null) map.set(key, (map.get(key) ?? 0) + 1);
}
