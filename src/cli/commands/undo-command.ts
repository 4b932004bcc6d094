/**
 * The shape `rollback` and `revert` share: one whole-number option naming what to undo, the
 * writer (--by, --as), the call to the authority, and the new active version printed.
 *
 * Owns: that shared shape. Does not own: what either verb means (domain/authority/undo.ts).
 */
import { UsageError, type Command } from '../command.ts';
import type { Knowledge } from '../knowledge.ts';
import { COMMON_USAGE, openKnowledge, parseOptions, requireInt, shortId, WRITER } from '../knowledge.ts';
import type { ActivationResult } from '../../domain/authority/index.ts';

export interface UndoCommandSpec {
  readonly name: string;
  readonly summary: string;
  /** The option naming what to undo, e.g. "to" for --to N. */
  readonly option: string;
  /** Its line in the usage, after "--<option> N". */
  readonly optionHelp: string;
  /** What to say when it is missing. */
  readonly missing: string;
  /** How the printed result begins ("" or "Reverted: "). */
  readonly lead: string;
  readonly undo: (
    k: Knowledge,
    n: number,
    writer: { taughtBy: string; reason?: string },
  ) => Promise<ActivationResult>;
}

export function undoCommand(spec: UndoCommandSpec): Command {
  return {
    name: spec.name,
    summary: spec.summary,
    usage: `npx learnables-triage ${spec.name} --${spec.option} N --by PERSON --as OPERATOR [--reason TEXT]
  ${`--${spec.option} N`.padEnd(16)} ${spec.optionHelp}
${WRITER.usage}
${COMMON_USAGE}`,
    async run(args, io) {
      const { values } = parseOptions(args, {
        [spec.option]: { type: 'string' },
        ...WRITER.options,
      });
      const raw = (values as Record<string, unknown>)[spec.option];
      if (typeof raw !== 'string') throw new UsageError(spec.missing);
      const n = requireInt(raw, `--${spec.option}`);
      const { by, as } = WRITER.require(values);
      const k = await openKnowledge(values, io, as);
      try {
        const r = await spec.undo(k, n, {
          taughtBy: by,
          ...(values.reason === undefined ? {} : { reason: values.reason }),
        });
        if (values.json === true) io.out(JSON.stringify(r, null, 2));
        else
          io.out(
            `${spec.lead}${r.describes}\n  now definitionVersion ${r.definitionVersion} (${shortId(r.versionId)})`,
          );
      } finally {
        await k.close();
      }
    },
  };
}
