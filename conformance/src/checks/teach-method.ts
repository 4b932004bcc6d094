/**
 * §12.2 the self-owning profile, where the card declares `teachMethod`: the method takes a Lesson
 * and returns a LessonResult, with the extension echoed (§7). (Every §10 check ran through it when
 * the adapter gives no other way to teach.)
 */
import type { LessonDraft } from '../adapter.ts';
import { echoes } from '../agent.ts';
import { schemaProblems } from '../schema.ts';
import { callTeachMethod, jsonRpcUrl, teachMethod, type Session } from '../session.ts';

export async function checkTeachMethod(s: Session, known: LessonDraft | null): Promise<void> {
  const id = 'teach-method.result';
  const method = teachMethod(s);
  if (method === null) {
    s.r.na(id, '§12.2', 'the card declares no teachMethod (the external-authority profile, §12.1)');
    return;
  }
  if (jsonRpcUrl(s) === null) {
    s.r.fail(id, '§12.2', `the card declares teachMethod ${method} but no JSONRPC interface to call it on`);
    return;
  }
  if (known === null) {
    s.r.skip(id, '§12.2', 'no lesson was learned to send to it again');
    return;
  }
  await s.r.attempt(id, '§12.2', `calling ${method}`, async () => {
    const answer = await callTeachMethod(s, { ...known, taughtBy: s.taughtBy }, { activate: true });
    const problem = !answer.ok
      ? `${method} refused a lesson the agent knows (${answer.status}): ${answer.reason}`
      : (schemaProblems('LessonResult', answer.result) ??
        (echoes(answer.echoed) ? null : `${method} did not echo the extension in A2A-Extensions`));
    return s.r.verdict(
      id,
      '§12.2',
      problem,
      `${method} takes a Lesson and returns a LessonResult, echoing the extension`,
    );
  });
}
