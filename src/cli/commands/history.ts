/** `history`: the tenant's activation history, newest first, with who and why (§10.3, §13.4). */
import type { Writer } from '../../domain/definitions/index.ts';
import type { Command } from '../command.ts';
import { COMMON_USAGE, openKnowledge, parseOptions, requireInt, shortId } from '../knowledge.ts';

/** §13.4: who actually wrote an activation, e.g. "app:preshipment (application, token tok_3f9a…)". */
function writerWords(w: Writer): string {
  if (w.kind === 'unknown') return 'an unrecorded writer (written before writers were kept)';
  const token = w.tokenId === null ? '' : `, token ${w.tokenId}`;
  return `${w.principal} (${w.kind}${token})`;
}

export const historyCommand: Command = {
  name: 'history',
  summary: 'list the activation history (who taught what, when and why)',
  usage: `npx learnables-triage history [--limit N] [--before N]
  --limit N        show at most N activations (default 50)
  --before N       only activations before definitionVersion N
${COMMON_USAGE}`,
  async run(args, io) {
    const { values } = parseOptions(args, { limit: { type: 'string' }, before: { type: 'string' } });
    const limit = values.limit === undefined ? 50 : requireInt(values.limit, '--limit');
    const k = await openKnowledge(values, io);
    try {
      const rows = await k.authority.history(k.tenant, {
        limit,
        ...(values.before === undefined ? {} : { beforeVersion: requireInt(values.before, '--before') }),
      });
      if (values.json === true) {
        io.out(JSON.stringify(rows, null, 2));
        return;
      }
      if (rows.length === 0) {
        io.out(`Tenant ${k.tenant} has learned nothing yet.`);
        return;
      }
      for (const h of rows) {
        const where = h.collection === null ? '' : ` ${h.collection}/${h.entry ?? ''}`;
        const dead = h.tombstoned ? '  [tombstoned]' : '';
        io.out(`#${h.definitionVersion}  ${h.at}  ${h.action.padEnd(8)} by ${h.taughtBy}${where}${dead}`);
        io.out(`    written by ${writerWords(h.writer)}`);
        io.out(`    ${h.describes}`);
        if (h.reason !== null) io.out(`    reason: ${h.reason}`);
        io.out(`    version ${shortId(h.versionId)}`);
      }
    } finally {
      await k.close();
    }
  },
};
