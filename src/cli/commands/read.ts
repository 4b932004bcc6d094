/**
 * `read`: read one .eml under the tenant's active definition and say whose it is and what kind, or
 * say plainly that it cannot tell, what it saw, and the lesson it proposes (§8, §11). The message is
 * kept in the tenant's corpus (§13.1), so later lessons can be dry-run against it.
 */
import { readFile } from 'node:fs/promises';
import { parseMail } from '../../ingest/mail/parse.ts';
import { presentReading } from '../../a2a/presentation.ts';
import type { CollectionReading, ManifestReading } from '../../domain/learnables/index.ts';
import { UsageError, type Command } from '../command.ts';
import { COMMON_USAGE, openKnowledge, parseOptions, shortId } from '../knowledge.ts';
import { openTriage } from '../open-triage.ts';
import { loadConfig, mailLimitsOf } from '../../config/config.ts';

export const readCommand: Command = {
  name: 'read',
  summary: 'read one .eml: whose it is, what kind, its manifest, or what lesson would settle it',
  usage: `npx learnables-triage read FILE.eml [--tenant T]
  FILE.eml         a raw RFC 822 message
${COMMON_USAGE}`,
  async run(args, io) {
    const { values, positionals } = parseOptions(args, {});
    const file = positionals[0];
    if (file === undefined || positionals.length > 1)
      throw new UsageError('name one .eml file to read, e.g. npx learnables-triage read pre-alert.eml');
    let raw: Buffer;
    try {
      raw = await readFile(file);
    } catch (e) {
      throw new UsageError(`cannot open ${file}: ${(e as Error).message}`);
    }
    const message = await parseMail(raw, mailLimitsOf(loadConfig(io.env)));
    const k = await openKnowledge(values, io);
    try {
      const out = await openTriage(k, io).triage(k.tenant, message);
      if (values.json === true) {
        io.out(JSON.stringify({ ...out, reading: presentReading(out.reading) }, null, 2));
        return;
      }
      const r = out.reading;
      io.out(`${file}: from ${message.from?.address ?? '(no sender)'}, "${message.subject}"`);
      io.out(
        `Read under definitionVersion ${r.definitionVersion} (${shortId(r.versionId)}) of tenant ${k.tenant}`,
      );
      io.out('');
      // This agent's own learnables, as the operator knows them.
      const report = (c: string): unknown => r.readings.get(c)?.report;
      printCollection((l) => io.out(l), 'Whose', report('customers') as CollectionReading | undefined);
      printCollection((l) => io.out(l), 'Kind', report('kinds') as CollectionReading | undefined);
      for (const m of (report('mappings') ?? []) as readonly ManifestReading[]) {
        io.out(`Manifest: ${m.reads}`);
        for (const f of m.fields) io.out(`  ${f.settled ? '✓' : '✗'} ${f.reads}`);
      }
      for (const q of out.questions) {
        io.out('');
        io.out(`Question: ${q.text}`);
        io.out(
          `  ${q.teach.collection}: ${q.teach.entries.length === 0 ? '(no entries yet: name a new one)' : q.teach.entries.join(', ')}`,
        );
        if (q.teach.suggested !== undefined) {
          const value = JSON.stringify(q.teach.suggested);
          io.out(`  Proposed lesson, from ${q.teach.suggestionLabel ?? 'the message'}: ${value}`);
          io.out(
            `  Try it:   npx learnables-triage dry-run --tenant ${k.tenant} --collection ${q.collection} --entry ENTRY --value '${value}'`,
          );
          io.out(
            `  Teach it: npx learnables-triage teach --tenant ${k.tenant} --collection ${q.collection} --entry ENTRY --value '${value}' --by YOU`,
          );
        } else if (q.noSuggestion !== undefined) {
          io.out(`  ${q.noSuggestion}`);
        }
      }
    } finally {
      await k.close();
    }
  },
};

function printCollection(out: (line: string) => void, title: string, r: CollectionReading | undefined): void {
  if (r === undefined) return;
  out(`${title}: ${r.reads}`);
  for (const c of r.candidates) {
    if (c.matched.length === 0) continue;
    out(`  ${c.label} (${c.name}) scores ${c.score}`);
    for (const e of c.evidence) {
      out(
        `    '${e.mark}' ${e.where === 'any' ? 'anywhere' : `in the ${e.where}`} matched "${e.text.trim()}" in the ${e.part}; taught by ${e.taughtBy} at ${e.taughtAt} (v${e.activation})`,
      );
    }
  }
}
