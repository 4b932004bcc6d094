/** `erase`: remove a personal identifier from the active knowledge and tombstone every version holding it (§14). */
import { UsageError, type Command } from '../command.ts';
import { COMMON_USAGE, openKnowledge, parseOptions, shortId, WRITER } from '../knowledge.ts';

export const eraseCommand: Command = {
  name: 'erase',
  summary: 'erase a personal identifier everywhere (tombstones the versions holding it)',
  usage: `npx learnables-triage erase --identifier X --by PERSON --as OPERATOR [--reason TEXT]
  --identifier X   the personal identifier, e.g. dana@origin.example
${WRITER.usage}
${COMMON_USAGE}`,
  async run(args, io) {
    const { values } = parseOptions(args, {
      identifier: { type: 'string' },
      ...WRITER.options,
    });
    if (values.identifier === undefined)
      throw new UsageError('say what to erase with --identifier, e.g. --identifier dana@origin.example');
    const { by, as } = WRITER.require(values);
    const k = await openKnowledge(values, io, as);
    try {
      const r = await k.authority.erase(k.tenant, k.principal, {
        identifier: values.identifier,
        taughtBy: by,
        ...(values.reason === undefined ? {} : { reason: values.reason }),
      });
      if (values.json === true) {
        io.out(JSON.stringify(r, null, 2));
        return;
      }
      io.out(
        r.activated === null
          ? 'The active version did not hold it; no new version was needed.'
          : `${r.activated.describes}\n  now definitionVersion ${r.activated.definitionVersion} (${shortId(r.activated.versionId)})`,
      );
      io.out(
        `Tombstoned ${r.tombstonedVersions.length} earlier version(s); their history rows remain, marked tombstoned.`,
      );
      io.out(`Forgot ${r.peopleForgotten} person handle(s).`);
      // §14: what the erase changed in every store it reached.
      io.out('Changed, per store:');
      for (const s of r.stores)
        io.out(`  ${s.store}: ${s.changed < 0 ? 'not finished (a reader held it)' : s.changed}`);
      // §14: this process cannot reach another's memory; a server on this file notices the erase.
      io.out(
        'A server running on this data directory still holds what it remembered (regex analyses, compiled matchers, cached versions) until its next request, when it notices this erase and forgets all of it. A server on another data directory (an agent against this authority) is not reached: post the erase to that agent instead.',
      );
    } finally {
      await k.close();
    }
  },
};
