/**
 * §13.2 authorization: activation is not authorization, so a lesson without credentials is refused
 * (with the extension activated too), as is a message when the card declares security; and with a
 * second tenant's token nothing of the first is seen, and the first tenant's lesson does not decide
 * the second tenant's input.
 */
import type { Taught } from './absorption.ts';
import { stateOf, taskIdOf, type Channel } from '../agent.ts';
import { words } from '../report.ts';
import { park, teach, canTeach, type Session } from '../session.ts';

export async function checkAuthorization(s: Session, c: Channel, taught: Taught | null): Promise<void> {
  await checkUnauthenticated(s, c);
  await checkTenants(s, c, taught);
}

async function checkUnauthenticated(s: Session, c: Channel): Promise<void> {
  if (!canTeach(s)) {
    s.r.skip('auth.lesson-needs-credentials', '§13.2', 'no way to write a lesson');
  } else {
    await s.r.attempt('auth.lesson-needs-credentials', '§13.2', 'a lesson without credentials', async () => {
      const q = await park(s, c, 'no-credentials', true);
      const outcome = await teach(s, s.adapter.lesson(q), null);
      return s.r.verdict(
        'auth.lesson-needs-credentials',
        '§13.2',
        outcome.ok
          ? `a lesson sent without credentials was absorbed: ${JSON.stringify(outcome.result)}`
          : null,
        `a lesson without credentials, the extension activated, was refused (${outcome.ok ? '' : outcome.status})`,
      );
    });
  }
  const secured = Object.keys(s.agent.card?.securitySchemes ?? {}).length > 0;
  if (!secured) {
    s.r.na('auth.send-needs-credentials', '§13.2', 'the card declares no security scheme');
    return;
  }
  const refused = await c
    .send(s.adapter.undecidable(s.freshId('no-credentials')), { as: 'none', activate: true })
    .then((r) => `answered ${stateOf(r.value) ?? 'a message'}`)
    .catch(() => null);
  s.r.verdict(
    'auth.send-needs-credentials',
    '§13.2',
    refused === null
      ? null
      : `a message sent without credentials to an agent that declares security was ${refused}`,
    'a message without credentials was refused',
  );
}

async function checkTenants(s: Session, c: Channel, taught: Taught | null): Promise<void> {
  const ids = ['auth.tenant.get', 'auth.tenant.list', 'auth.tenant.lesson'];
  if (!s.agent.secondTenant) {
    for (const id of ids) s.r.skip(id, '§13.2', "no second tenant's token (--second-token)");
    return;
  }
  // A second token the agent refuses would make every isolation check pass by default: it must work.
  const refused = await c
    .send(s.adapter.undecidable(s.freshId('second-tenant')), { as: 'second', activate: true })
    .then(() => null)
    .catch((e: unknown) => words(e));
  if (refused !== null) {
    s.r.fail(
      'auth.tenant.token',
      '§13.2',
      `the agent refused the second tenant's token, so isolation cannot be seen: ${refused}`,
    );
    for (const id of ids) s.r.skip(id, '§13.2', "the second tenant's token was refused");
    return;
  }
  const q = await park(s, c, 'tenant', true);
  const taskId = q.task.id as string;
  const seen = await c
    .get(taskId, { as: 'second' })
    .then((r) => taskIdOf(r.value) === taskId)
    .catch(() => false);
  s.r.verdict(
    'auth.tenant.get',
    '§13.2',
    seen ? `the second tenant read the first tenant's task ${taskId}` : null,
    "the second tenant cannot read the first tenant's task",
  );
  const listed = await c
    .list({ as: 'second' })
    .then((r) => r.value.map((t) => t?.id as string))
    .catch(() => [] as string[]);
  s.r.verdict(
    'auth.tenant.list',
    '§13.2',
    listed.includes(taskId) ? `the second tenant's list shows the first tenant's task ${taskId}` : null,
    `the second tenant's list (${listed.length} task(s)) shows none of the first tenant's`,
  );
  await checkLessonScope(s, c, taught);
}

/** §13.2 "scope every lesson to exactly one tenant": what the first tenant taught does not decide the second's input. */
async function checkLessonScope(s: Session, c: Channel, taught: Taught | null): Promise<void> {
  const id = 'auth.tenant.lesson';
  if (taught === null) {
    s.r.skip(id, '§13.2', 'no lesson was learned by the first tenant');
    return;
  }
  await s.r.attempt(id, '§13.2', "sending the first tenant's taught input", async () => {
    const input = s.adapter.undecidable(taught.questionId);
    const first = stateOf((await c.send(input, { activate: true })).value);
    if (first === 'TASK_STATE_INPUT_REQUIRED')
      return s.r.skip(
        id,
        '§13.2',
        "the first tenant's lesson does not decide its input when sent again, so its scope cannot be seen",
      );
    const second = stateOf((await c.send(input, { activate: true, as: 'second' })).value);
    // Decided is the leak; a question, or a refusal to serve that tenant at all, is not.
    return s.r.verdict(
      id,
      '§13.2',
      second === 'TASK_STATE_COMPLETED'
        ? 'the input the first tenant taught was decided for the second tenant, which was taught nothing'
        : null,
      `the input the first tenant taught ends ${String(first)} for it, and ${String(second)} for the second tenant (${
        second === 'TASK_STATE_INPUT_REQUIRED' ? 'it still asks' : 'refused, not decided'
      })`,
    );
  });
}
