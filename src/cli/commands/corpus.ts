/**
 * `corpus`: the messages a tenant has read, kept for dry runs and suggestions (§13.1): how many, and
 * purging those first seen more than N days ago (the retention setting CORPUS_RETENTION_DAYS does the
 * same automatically while the server runs).
 */
import { SqliteCorpusStore } from '../../store/sqlite-corpus-store.ts';
import { UsageError, type Command } from '../command.ts';
import { COMMON_USAGE, openKnowledge, parseOptions, requireInt } from '../knowledge.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export const corpusCommand: Command = {
  name: 'corpus',
  summary: 'count the messages kept for dry runs, or purge old ones',
  usage: `npx learnables-triage corpus (count | purge --older-than-days N)
  count                   how many messages the tenant has read and kept
  purge                   delete messages first seen more than N days ago
  --older-than-days N     the age limit for purge, in days
${COMMON_USAGE}`,
  async run(args, io) {
    const { values, positionals } = parseOptions(args, { 'older-than-days': { type: 'string' } });
    const action = positionals[0];
    if (action !== 'count' && action !== 'purge')
      throw new UsageError('say count or purge, e.g. npx learnables-triage corpus count');
    const days = action === 'purge' ? requireInt(values['older-than-days'], '--older-than-days') : 0;
    const k = await openKnowledge(values, io);
    try {
      const corpus = new SqliteCorpusStore(k.db);
      if (action === 'count') {
        const n = await corpus.count(k.tenant);
        io.out(
          values.json === true ? JSON.stringify({ count: n }) : `${n} message(s) kept for tenant ${k.tenant}`,
        );
        return;
      }
      const cutoff = new Date(Date.now() - days * DAY_MS).toISOString();
      const n = await corpus.purge(k.tenant, cutoff);
      io.out(
        values.json === true
          ? JSON.stringify({ purged: n, olderThan: cutoff })
          : `purged ${n} message(s) first seen before ${cutoff} from tenant ${k.tenant}`,
      );
    } finally {
      await k.close();
    }
  },
};
