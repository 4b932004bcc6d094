/**
 * §8 the teach block of an activated question: it validates against the schema, names a collection
 * the card declares, and suggests only keys among that learnable's lesson fields. And the answer to
 * the question proceeds the same whether the question carried a block or not.
 */
import type { Question, Wire } from '../adapter.ts';
import { stateOf, type Channel } from '../agent.ts';
import { schemaProblems } from '../schema.ts';
import { park, type Session } from '../session.ts';
import { words } from '../report.ts';

export function checkTeachBlock(s: Session, q: Question): void {
  const block = q.teach;
  if (block === undefined) {
    s.r.skip(
      'teach.block',
      '§8',
      'the activated question carries no teach block (§8: an agent MAY attach one)',
    );
    return;
  }
  s.r.verdict(
    'teach.schema',
    '§8',
    schemaProblems('TeachBlock', block),
    'the teach block validates against the schema',
  );
  const learnables: Wire[] = s.declaration?.params?.learnables ?? [];
  const declared = learnables.find((l) => l?.collection === block?.collection);
  s.r.verdict(
    'teach.collection',
    '§8',
    declared === undefined
      ? `the block names collection ${JSON.stringify(block?.collection)}, which the card does not declare`
      : null,
    `the block's collection ${JSON.stringify(block?.collection)} is declared on the card`,
  );
  if (declared === undefined) return;
  const fields: Wire[] = Array.isArray(block.lessonFields)
    ? block.lessonFields
    : (declared.lessonFields ?? []);
  const names = new Set(fields.map((f) => f?.name));
  const keys = block.suggested === undefined ? [] : Object.keys(block.suggested);
  const extra = keys.filter((k) => !names.has(k));
  s.r.verdict(
    'teach.suggested-keys',
    '§8',
    extra.length === 0
      ? null
      : `suggested has key(s) ${extra.join(', ')} that are not lesson fields (${[...names].join(', ')})`,
    block.suggested === undefined
      ? 'the block suggests nothing, so no key is outside the lesson fields'
      : `suggested's keys (${keys.join(', ')}) are lesson fields`,
  );
}

/**
 * §8 "the task MUST proceed identically": the same answer to a question asked with a teach block
 * and to one asked without leads to the same state and the same shape of result.
 */
export async function checkSameProceeding(s: Session, c: Channel): Promise<void> {
  const id = 'teach.same-proceeding';
  await s.r
    .attempt(id, '§8', 'answering a question with and without its teach block', async () => {
      const withBlock = await park(s, c, 'answer-with', true);
      const without = await park(s, c, 'answer-without', false);
      const a = (await c.send(answerOn(s, withBlock), { activate: true })).value;
      const b = (await c.send(answerOn(s, without), { activate: false })).value;
      const problem =
        stateOf(a) !== stateOf(b)
          ? `answered with the block the task ended ${stateOf(a)}, without it ${stateOf(b)}`
          : shape(a.artifacts) !== shape(b.artifacts)
            ? `the results differ in shape: with the block ${shape(a.artifacts)}, without ${shape(b.artifacts)}`
            : null;
      return s.r.verdict(
        id,
        '§8',
        problem,
        `the same answer ends both tasks ${stateOf(a)}, with results of the same shape`,
      );
    })
    .catch((e: unknown) => s.r.fail(id, '§8', words(e)));
}

/** The adapter's answer, sent on the question's task. */
export function answerOn(s: Session, q: Question): Wire {
  return { ...s.adapter.answer(q), taskId: q.task.id, contextId: q.task.contextId };
}

/** The keys of a value, recursively, with array items merged: what two results must share. */
function shape(value: unknown): string {
  if (Array.isArray(value)) return `[${[...new Set(value.map(shape))].sort().join('|')}]`;
  if (value === null || typeof value !== 'object') return typeof value;
  const entries = Object.entries(value)
    .filter(([k]) => k !== 'metadata')
    .sort(([x], [y]) => x.localeCompare(y));
  return `{${entries.map(([k, v]) => `${k}:${shape(v)}`).join(',')}}`;
}
