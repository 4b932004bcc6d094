/**
 * `rules --task ID | --version ID`: which rules were in force when a task was decided, and who put
 * them there (§13.4), answered from stored state: the task's pin (its metadata in the tasks table)
 * and the version's own content. The same answer as GET /authority/v1/rules-in-force.
 */
import type { RuleInForce } from '../../domain/authority/index.ts';
import { DomainError } from '../../domain/errors.ts';
import { createSqliteTaskPins } from '../../store/sqlite-task-pins.ts';
import { UsageError, type Command } from '../command.ts';
import { COMMON_USAGE, openKnowledge, parseOptions } from '../knowledge.ts';

export const rulesCommand: Command = {
  name: 'rules',
  summary: 'show the rules in force for a task or a version, and who put them there',
  usage: `npx learnables-triage rules --task TASK_ID | --version VERSION_ID
  --task ID        a task's id: the rules of the version it was pinned to
  --version ID     a versionId (sha256:…)
${COMMON_USAGE}`,
  async run(args, io) {
    const { values } = parseOptions(args, { task: { type: 'string' }, version: { type: 'string' } });
    if ((values.task === undefined) === (values.version === undefined)) {
      throw new UsageError('name exactly one of --task <task id> or --version <sha256:…>');
    }
    const k = await openKnowledge(values, io);
    try {
      let versionId = values.version;
      let header: string;
      let pin: { definitionVersion: number; versionId: string } | null = null;
      if (values.task !== undefined) {
        pin = await createSqliteTaskPins(k.db).pinOf(k.tenant, values.task);
        if (pin === null) {
          throw new DomainError(
            'NOT_FOUND',
            `Tenant ${k.tenant} has no task "${values.task}" pinned to a definition. Check the task id and --tenant.`,
          );
        }
        versionId = pin.versionId;
        header = `Task ${values.task} was decided under definitionVersion ${pin.definitionVersion} (${pin.versionId}).`;
      } else {
        header = `Version ${versionId}.`;
      }
      const rules = await k.authority.rulesInForce(k.tenant, versionId!);
      if (values.json === true) {
        io.out(
          JSON.stringify(
            {
              ...(values.task === undefined
                ? {}
                : { taskId: values.task, definitionVersion: pin!.definitionVersion }),
              versionId,
              rules,
            },
            null,
            2,
          ),
        );
        return 0;
      }
      io.out(header);
      if (rules.length === 0) {
        io.out('No rules were in force: nothing had been learned.');
        return 0;
      }
      io.out(`${rules.length} rule(s) in force:`);
      for (const r of rules) io.out(ruleLine(r));
      return 0;
    } finally {
      await k.close();
    }
  },
};

/** §13.4: the person, and the application or operator that wrote it for them. */
export function taughtByWords(r: Pick<RuleInForce, 'taughtBy' | 'via'>): string {
  return r.via === null ? r.taughtBy : `${r.taughtBy}, via ${r.via}`;
}

function ruleLine(r: RuleInForce): string {
  return `  ${r.collection}/${r.entry}: ${r.describes}\n      taught by ${taughtByWords(r)} in #${r.activation} at ${r.at}`;
}
