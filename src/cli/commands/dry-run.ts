/**
 * `dry-run`: evaluate a proposed lesson against the messages the tenant has read (§13.1) before
 * teaching it: how many it matches, a few of them, how many it would newly settle, and which
 * would change from one entry to another. Nothing is written.
 */
import { UsageError, type Command } from '../command.ts';
import { lessonValueFromOptions } from '../lesson-value.ts';
import { COMMON_USAGE, openKnowledge, parseOptions, shortId } from '../knowledge.ts';
import { openTriage } from '../open-triage.ts';

export const dryRunCommand: Command = {
  name: 'dry-run',
  summary: 'evaluate a lesson against the messages read so far, without teaching it',
  usage: `npx learnables-triage dry-run --collection C --entry E (--value JSON | --set key=value ...)
  --collection C   a declared collection (customers, kinds, mappings)
  --entry E        the entry the lesson would teach (e.g. northgate)
  --value JSON     the lesson value as a JSON object
  --set key=value  one field of the value (repeatable; joins --value)
${COMMON_USAGE}`,
  async run(args, io) {
    const { values } = parseOptions(args, {
      collection: { type: 'string' },
      entry: { type: 'string' },
      value: { type: 'string' },
      set: { type: 'string', multiple: true },
    });
    if (values.collection === undefined)
      throw new UsageError('name the collection with --collection, e.g. --collection customers');
    if (values.entry === undefined)
      throw new UsageError('name the entry with --entry, e.g. --entry northgate');
    const value = lessonValueFromOptions(values);
    const k = await openKnowledge(values, io);
    try {
      const r = await openTriage(k, io).dryRun(k.tenant, {
        collection: values.collection,
        entry: values.entry,
        value,
      });
      if (values.json === true) {
        io.out(JSON.stringify(r, null, 2));
        return;
      }
      io.out(
        `Dry run: ${r.collection}/${r.entry} ${r.describes}${r.learned ? '' : ' (already known: teaching it would change nothing)'}`,
      );
      io.out(
        `  against definitionVersion ${r.definitionVersion} (${shortId(r.versionId)}), ${r.total} message(s) read so far in tenant ${k.tenant}`,
      );
      io.out(`  matches ${r.matches} message(s)${r.examples.length > 0 ? ', for example:' : ''}`);
      for (const e of r.examples) io.out(`    "${e.subject}" from ${e.from || '(no sender)'}`);
      io.out(`  would newly settle ${r.newlySettled} message(s)`);
      if (r.conflicts === 0) io.out('  would change no settled message');
      else {
        io.out(`  CONFLICTS: ${r.conflicts} settled message(s) would change; check them before teaching:`);
        for (const c of r.changes)
          io.out(`    "${c.subject}": ${c.from ?? '(unsettled)'} -> ${c.to ?? '(unsettled)'}`);
      }
    } finally {
      await k.close();
    }
  },
};
