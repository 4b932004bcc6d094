/** `show`: the active definition (or one version) with every rule in force and who put it there (§13.4). */
import type { Command } from '../command.ts';
import { COMMON_USAGE, openKnowledge, parseOptions } from '../knowledge.ts';
import { taughtByWords } from './rules.ts';

export const showCommand: Command = {
  name: 'show',
  summary: 'show the active definition, or one version, rule by rule',
  usage: `npx learnables-triage show [--version sha256:…]
  --version ID     a versionId from the history (default: the active version)
${COMMON_USAGE}`,
  async run(args, io) {
    const { values } = parseOptions(args, { version: { type: 'string' } });
    const k = await openKnowledge(values, io);
    try {
      let definition;
      let header: string;
      if (values.version === undefined) {
        const active = await k.authority.active(k.tenant);
        definition = active.definition;
        header = `Tenant ${k.tenant}, active definitionVersion ${active.definitionVersion}, version ${definition.versionId}`;
      } else {
        definition = await k.authority.load(k.tenant, values.version);
        header = `Tenant ${k.tenant}, version ${definition.versionId}`;
      }
      const versionId = definition.versionId;
      const rules = await k.authority.rulesInForce(k.tenant, versionId);
      if (values.json === true) {
        const collections = Object.fromEntries(
          [...definition.collections].map(([c, m]) => [c, Object.fromEntries(m)]),
        );
        io.out(JSON.stringify({ versionId, collections, rules }, null, 2));
        return;
      }
      io.out(header);
      if (definition.collections.size === 0) io.out('  (nothing learned yet)');
      for (const [collection, entries] of definition.collections) {
        io.out(`${collection} (${entries.size})`);
        for (const entry of entries.keys()) {
          io.out(`  ${entry}`);
          for (const r of rules.filter((x) => x.collection === collection && x.entry === entry)) {
            io.out(`    - ${r.describes}  (#${r.activation}, ${taughtByWords(r)}, ${r.at})`);
          }
        }
      }
    } finally {
      await k.close();
    }
  },
};
