/** `teach`: absorb one lesson (§9, §10) and say what was learned, in the learnable's words. */
import { UsageError, type Command } from '../command.ts';
import { lessonValueFromOptions } from '../lesson-value.ts';
import { COMMON_USAGE, openKnowledge, parseOptions, shortId, WRITER } from '../knowledge.ts';

export const teachCommand: Command = {
  name: 'teach',
  summary: 'teach one lesson to a collection entry',
  usage: `npx learnables-triage teach --collection C --entry E (--value JSON | --set key=value ...) --by PERSON --as OPERATOR [--reason TEXT]
  --collection C   a declared collection (customers, kinds, mappings)
  --entry E        the entry to teach (e.g. northgate)
  --value JSON     the lesson value as a JSON object
  --set key=value  one field of the value (repeatable; joins --value)
${WRITER.usage}
${COMMON_USAGE}`,
  async run(args, io) {
    const { values } = parseOptions(args, {
      collection: { type: 'string' },
      entry: { type: 'string' },
      value: { type: 'string' },
      set: { type: 'string', multiple: true },
      ...WRITER.options,
    });
    const { by, as } = WRITER.require(values);
    if (values.collection === undefined)
      throw new UsageError('name the collection with --collection, e.g. --collection customers');
    if (values.entry === undefined)
      throw new UsageError('name the entry with --entry, e.g. --entry northgate');
    const value = lessonValueFromOptions(values);
    const k = await openKnowledge(values, io, as);
    try {
      const r = await k.authority.absorb(k.tenant, k.principal, {
        collection: values.collection,
        entry: values.entry,
        value,
        taughtBy: by,
        ...(values.reason === undefined ? {} : { reason: values.reason }),
      });
      if (values.json === true) io.out(JSON.stringify(r, null, 2));
      else if (r.learned) {
        io.out(`Learned: ${values.collection}/${values.entry} ${r.describes}`);
        io.out(
          `  now definitionVersion ${r.definitionVersion} (${shortId(r.versionId ?? '')}) for tenant ${k.tenant}`,
        );
      } else {
        io.out(`Nothing new: ${values.collection}/${values.entry} already ${r.describes}`);
        io.out(`  still definitionVersion ${r.definitionVersion}; no new version was made (§10.2)`);
      }
    } finally {
      await k.close();
    }
  },
};
