/**
 * Tasks a killed process left half-done (found by `npm run soak`): a task saved as
 * submitted or working whose process died before it reached an outcome would stay so forever, and a
 * client polling it would wait forever. At start, before listening, each such task of each tenant is
 * set to failed with a sentence saying what happened and what to do. Only tasks last touched before
 * this process started are swept (`before`), so with one process per data directory (SQLite) none
 * is another process's live work. Parked tasks (input-required) are untouched: they are answerable.
 *
 * Does not retry the message: the mail pipelines retry theirs by their claim ledger (src/ingest/intake.ts);
 * an A2A client is told to send the message again.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { knownTenants } from './sqlite-task-mail.ts';
import { UNFINISHED_STATES } from '../domain/task-states.ts';

export const INTERRUPTED_MESSAGE =
  'The server stopped while it was reading this message, so nothing was decided for it. Send the message again: it starts a new task.';

const UNFINISHED = [...UNFINISHED_STATES];

/** Marks every unfinished task last updated before `beforeMs` failed; returns how many. */
export async function failInterruptedTasks(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema is defined by the SDK's migrations
  db: Kysely<any>,
  beforeMs: number,
  nowIso: string = new Date().toISOString(),
): Promise<number> {
  let count = 0;
  for (const tenant of await knownTenants(db)) {
    const rows = (await db
      .selectFrom('tasks')
      .select(['tenant', 'owner', 'id', 'context_id'])
      // the SDK keeps our tenant in `owner` (src/a2a/user.ts: "<tenant>/*"), its own column is ''
      .where('owner', '=', `${tenant}/*`)
      .where('status_state', 'in', UNFINISHED)
      .where('status_last_updated', '<', beforeMs)
      .execute()) as { tenant: string; owner: string; id: string; context_id: string }[];
    for (const row of rows) {
      const status = {
        state: 'TASK_STATE_FAILED',
        timestamp: nowIso,
        message: {
          messageId: randomUUID(),
          role: 'ROLE_AGENT',
          taskId: row.id,
          contextId: row.context_id,
          parts: [{ text: INTERRUPTED_MESSAGE }],
        },
      };
      await db
        .updateTable('tasks')
        .set({
          status_state: 'TASK_STATE_FAILED',
          status: JSON.stringify(status),
          status_last_updated: Date.parse(nowIso),
        })
        .where('tenant', '=', row.tenant)
        .where('owner', '=', row.owner)
        .where('id', '=', row.id)
        .where('status_state', 'in', UNFINISHED)
        .execute();
      count++;
    }
  }
  return count;
}
