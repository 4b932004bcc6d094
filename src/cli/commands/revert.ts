/** `revert`: undo exactly what one activation taught, keeping every lesson after it (§13.4). */
import { UsageError, type Command } from '../command.ts';
import { COMMON_USAGE, openKnowledge, parseOptions, requireInt, shortId, WRITER } from '../knowledge.ts';

export const revertCommand: Command = {
  name: 'revert',
  summary: 'take back one lesson, keeping everything taught after it',
  usage: `npx learnables-triage revert --activation N --by PERSON --as OPERATOR [--reason TEXT]
  --activation N   the lesson's definitionVersion, as shown by history
${WRITER.usage}
${COMMON_USAGE}`,
  async run(args, io) {
    const { values } = parseOptions(args, {
      activation: { type: 'string' },
      ...WRITER.options,
    });
    if (values.activation === undefined)
      throw new UsageError('say which lesson to take back with --activation N (see history)');
    const activation = requireInt(values.activation, '--activation');
    const { by, as } = WRITER.require(values);
    const k = await openKnowledge(values, io, as);
    try {
      const r = await k.authority.revert(k.tenant, k.principal, {
        activation,
        taughtBy: by,
        ...(values.reason === undefined ? {} : { reason: values.reason }),
      });
      if (values.json === true) io.out(JSON.stringify(r, null, 2));
      else
        io.out(
          `Reverted: ${r.describes}\n  now definitionVersion ${r.definitionVersion} (${shortId(r.versionId)})`,
        );
    } finally {
      await k.close();
    }
  },
};
