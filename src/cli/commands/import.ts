/** `import`: load a directory from JSON, lesson by lesson through the learnables, as one activation. */
import { readFile } from 'node:fs/promises';
import type { DirectoryImport } from '../../domain/authority/index.ts';
import { DomainError } from '../../domain/errors.ts';
import { UsageError, type Command } from '../command.ts';
import { COMMON_USAGE, openKnowledge, parseOptions, shortId, WRITER } from '../knowledge.ts';

export const importCommand: Command = {
  name: 'import',
  summary: 'import a directory from a JSON file (e.g. fixtures/directory/demo.json)',
  usage: `npx learnables-triage import FILE --by PERSON --as OPERATOR [--reason TEXT]
  FILE             {"collections": {"customers": {"northgate": [<lesson value>, …]}, …}}
${WRITER.usage}
${COMMON_USAGE}`,
  async run(args, io) {
    const { values, positionals } = parseOptions(args, {
      ...WRITER.options,
    });
    const [file, ...extra] = positionals;
    if (file === undefined || extra.length > 0)
      throw new UsageError('give exactly one directory file, e.g. import fixtures/directory/demo.json');
    const { by, as } = WRITER.require(values);
    let directory: DirectoryImport;
    try {
      directory = JSON.parse(await readFile(file, 'utf8')) as DirectoryImport;
    } catch (e) {
      throw new DomainError('IMPORT_MALFORMED', `${file} cannot be read as JSON: ${(e as Error).message}`);
    }
    const k = await openKnowledge(values, io, as);
    try {
      const r = await k.authority.import(k.tenant, k.principal, {
        directory,
        taughtBy: by,
        ...(values.reason === undefined ? {} : { reason: values.reason }),
      });
      if (values.json === true) io.out(JSON.stringify(r, null, 2));
      else if (r === null) io.out(`Nothing new: tenant ${k.tenant} already knows everything in ${file}.`);
      else io.out(`${r.describes}\n  now definitionVersion ${r.definitionVersion} (${shortId(r.versionId)})`);
    } finally {
      await k.close();
    }
  },
};
