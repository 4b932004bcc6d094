/**
 * Questions a suggestion asks of the corpus before it is offered (§8, §13.1): how many messages
 * already read would a mark match, and what were they read as; what has a sender been read as.
 * Marks are confirmed on re2 over the parts they name; a literal hint (text every match contains)
 * lets the store skip messages that cannot match.
 *
 * Owns: evaluating marks over kept messages. Does not own: what is kept (the store) or what is
 * worth suggesting (suggest.ts).
 */
import RE2 from 're2';
import type { MarkSource } from '../learnables/learnable.ts';
import { partText } from '../mail/parts.ts';
import type { TenantId } from '../tenant.ts';
import { scanCorpus, type CorpusStore, type ReadingSummary } from './corpus.ts';

/** What a collection's last reading settled on, per collection; null when unsettled or unknown. */
export function settledAs(summary: ReadingSummary | null, collection: string): string | null {
  if (summary === null) return null;
  if (collection === 'customers') return summary.customer;
  if (collection === 'kinds') return summary.kind;
  return null;
}

export interface ProbeResult {
  /** Messages (other than the one excepted) any of the marks matches. */
  readonly matches: number;
  /** Of those, how many were last read as each settled entry of the collection asked about. */
  readonly settled: ReadonlyMap<string, number>;
}

export interface SenderHistory {
  /** Messages from this address (other than the one excepted). */
  readonly messages: number;
  /** What they were last read as (settled customers), with counts. */
  readonly settledCustomers: ReadonlyMap<string, number>;
}

export interface CorpusProbe {
  /** Messages kept, other than the one excepted. */
  total(): Promise<number>;
  matching(
    marks: readonly MarkSource[],
    collection: string,
    options?: { readonly hint?: string },
  ): Promise<ProbeResult>;
  sender(address: string): Promise<SenderHistory>;
  /** The same, for every address at a domain. */
  domain(domain: string): Promise<SenderHistory>;
}

/** A probe over one tenant's corpus, leaving out the message being asked about (`exceptKey`). */
export function createCorpusProbe(
  store: CorpusStore,
  tenant: TenantId,
  exceptKey: string | null,
): CorpusProbe {
  async function history(filter: { fromAddress?: string; fromDomain?: string }): Promise<SenderHistory> {
    let messages = 0;
    const settledCustomers = new Map<string, number>();
    for await (const record of scanCorpus(store, tenant, filter)) {
      if (record.key === exceptKey) continue;
      messages++;
      count(settledCustomers, settledAs(record.lastReading, 'customers'));
    }
    return { messages, settledCustomers };
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
      const scan = options.hint === undefined ? {} : { containing: options.hint };
      for await (const record of scanCorpus(store, tenant, scan)) {
        if (record.key === exceptKey) continue;
        if (!compiled.some((c) => c.parts.some((p) => c.re.test(partText(record.message, p))))) continue;
        matches++;
        count(settled, settledAs(record.lastReading, collection));
      }
      return { matches, settled };
    },

    sender(address) {
      return history({ fromAddress: address });
    },

    domain(domain) {
      return history({ fromDomain: domain });
    },
  };
}

function count(map: Map<string, number>, key: string | null): void {
  if (key !== null) map.set(key, (map.get(key) ?? 0) + 1);
}
