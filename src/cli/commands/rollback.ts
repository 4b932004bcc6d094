/** `rollback`: activate the content of an earlier definitionVersion as a new history entry (§10.3). */
import { UsageError, type Command } from '../command.ts';
import { COMMON_USAGE, openKnowledge, parseOptions, requireInt, shortId, WRITER } from '../knowledge.ts';

export const rollbackCommand: Command = {
  name: 'rollback',
  summary: 'make an earlier definitionVersion active again (recorded as a new activation)',
  usage: `npx learnables-triage rollback --to N --by PERSON --as OPERATOR [--reason TEXT]
  --to N           the definitionVersion whose content becomes active (0 = nothing learned)
${WRITER.usage}
${COMMON_USAGE}`,
  async run(args, io) {
    const { values } = parseOptions(args, {
      to: { type: 'string' },
      ...WRITER.options,
    });
    if (values.to === undefined)
      throw new UsageError('say which definitionVersion to go back to with --to N');
    const to = requireInt(values.to, '--to');
    const { by, as } = WRITER.require(values);
    const k = await openKnowledge(values, io, as);
    try {
      const r = await k.authority.rollback(k.tenant, k.principal, {
        to,
        taughtBy: by,
        ...(values.reason === undefined ? {} : { reason: values.reason }),
      });
      if (values.json === true) io.out(JSON.stringify(r, null, 2));
      else io.out(`${r.describes}\n  now definitionVersion ${r.definitionVersion} (${shortId(r.versionId)})`);
    } finally {
      await k.close();
    }
  },
};
