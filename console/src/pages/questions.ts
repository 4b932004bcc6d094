/** Questions: the tasks waiting in input-required, one question, and the answer form rendered blind (§6.3, §8, §13.1). */
import { ApiError, isObject, type Json, type JsonObject } from '../api.ts';
import { h, say, uid } from '../dom.ts';
import { fieldOfRefusal, lessonFieldsOf, renderLessonFields } from '../lesson-fields.ts';
import { mailOf, resultTask, statusText, taskState, teachBlockOf, text, type TeachBlock } from '../wire.ts';
import { descriptorOf, entryNoun, labelOf, problem, show, type Session } from '../page.ts';
import { correctionPanel } from './decided.ts';
import { entryPicker, listTasks, mailCard, showBack, taskList } from '../tasks.ts';

export async function questionsPage(s: Session): Promise<void> {
  const tasks = await listTasks(s, 'TASK_STATE_INPUT_REQUIRED');
  if (tasks.length === 0) {
    show('Questions', h('p', {}, 'No question is waiting. Every message so far was decided.'));
    return;
  }
  const list = taskList(tasks, (t) => `from ${mailOf(t)?.from || 'unknown'}`);
  show('Questions', h('p', {}, `${tasks.length} waiting, newest first.`), list);
}

export async function taskPage(s: Session, taskId: string): Promise<void> {
  const task = await s.agent.rpc('GetTask', { id: taskId, historyLength: 10 });
  const teach = teachBlockOf(task);
  if (taskState(task) !== 'TASK_STATE_INPUT_REQUIRED' || teach === null) {
    show('Decided', mailCard(task), h('p', {}, statusText(task)), correctionPanel(s, task));
    return;
  }
  show(
    'A question from the agent',
    mailCard(task),
    h('p', { class: 'card' }, h('strong', {}, 'The agent asks: '), statusText(task)),
    answerForm(s, task, teach),
  );
}

export function answerForm(s: Session, task: JsonObject, teach: TeachBlock): HTMLElement {
  const noun = entryNoun(s, teach.collection);
  const picker = entryPicker(s, teach.collection, teach.entries, noun);
  const declared = descriptorOf(s, teach.collection);
  const fields = lessonFieldsOf(teach.lessonFields ?? declared?.lessonFields);
  const rendered = renderLessonFields(
    fields,
    teach.suggested,
    teach.suggestionLabel,
    'What gives it away next time',
  );
  const rememberId = uid('remember');
  const reasonId = uid('reason');
  const remember = h('input', { id: rememberId, type: 'checkbox', checked: true });
  const reason = h('input', { id: reasonId, type: 'text', autocomplete: 'off' });
  const outcome = h('div', { 'aria-live': 'polite' });
  const dryRunButton = h('button', { type: 'button' }, 'Check against messages already read');
  const submit = h('button', { type: 'submit' }, 'Answer');
  const lesson = (): JsonObject => ({
    collection: teach.collection,
    entry: picker.value(),
    value: rendered.value(),
    taughtBy: s.person,
    ...(reason.value.trim() === '' ? {} : { reason: reason.value.trim() }),
  });
  const refused = (e: unknown): boolean => {
    if (e instanceof ApiError && (e.code === 'LESSON_REFUSED' || e.code === 'LESSON_MALFORMED')) {
      rendered.showProblem(fieldOfRefusal(e.details, e.message, rendered.value()), e.message);
      say('The agent would not take that lesson; its reason is next to the field.');
      return true;
    }
    return false;
  };
  dryRunButton.addEventListener('click', () => {
    rendered.clearProblems();
    if (picker.value() === '')
      return outcome.replaceChildren(
        h('p', { class: 'problem', role: 'alert' }, `Choose the ${noun} first.`),
      ) as undefined;
    void s.agent
      .post('/lessons:dry-run', lesson())
      .then((r) => outcome.replaceChildren(dryRunReport(s, teach.collection, r)))
      .catch((e: unknown) => {
        if (!refused(e)) outcome.replaceChildren(problem(e));
      });
  });
  const form = h(
    'form',
    { class: 'card', 'aria-label': 'Your answer' },
    picker.element,
    rendered.element,
    h(
      'div',
      { class: 'field' },
      h('span', {}, remember, ' ', h('label', { for: rememberId }, 'Remember this for next time')),
    ),
    h('div', { class: 'field' }, h('label', { for: reasonId }, 'Why (kept in the history)'), reason),
    dryRunButton,
    submit,
    outcome,
  );
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    rendered.clearProblems();
    const entry = picker.value();
    if (entry === '') {
      outcome.replaceChildren(h('p', { class: 'problem', role: 'alert' }, `Choose the ${noun} first.`));
      return;
    }
    void (async () => {
      try {
        if (remember.checked) await s.authority.post('/lessons', lesson()); // §12.1: to the authority
      } catch (e) {
        if (!refused(e)) outcome.replaceChildren(problem(e));
        return;
      }
      try {
        const answered = resultTask(
          await s.agent.rpc('SendMessage', {
            message: {
              messageId: crypto.randomUUID(),
              role: 'ROLE_USER',
              taskId: text(task.id),
              parts: [{ data: { entry } }],
            },
          }),
        );
        const effect = remember.checked ? await showBack(s, text(task.id)) : null;
        const next = teachBlockOf(answered);
        const nodes: Node[] = [];
        if (effect !== null) nodes.push(effect);
        if (taskState(answered) === 'TASK_STATE_INPUT_REQUIRED' && next !== null) {
          nodes.push(
            h('p', { class: 'card' }, h('strong', {}, 'The agent asks next: '), statusText(answered)),
            answerForm(s, answered, next),
          );
        } else {
          nodes.push(h('p', {}, `The task is finished: ${statusText(answered)}`));
        }
        show('Answered', mailCard(answered), ...nodes);
        say('Answered.');
      } catch (e) {
        outcome.replaceChildren(problem(e));
      }
    })();
  });
  return form;
}

export function dryRunReport(s: Session, collection: string, r: JsonObject): HTMLElement {
  const who = (v: Json | undefined) => (typeof v === 'string' ? labelOf(s, collection, v) : 'nobody');
  const n = (v: Json | undefined) => (typeof v === 'number' ? v : 0);
  const changes = Array.isArray(r.changes) ? r.changes.filter(isObject) : [];
  return h(
    'section',
    { class: 'card', 'aria-label': 'Dry run' },
    h('h2', {}, 'Before you teach'),
    h('p', {}, typeof r.describes === 'string' ? `It would learn: ${r.describes}.` : ''),
    h(
      'p',
      {},
      `It matches ${n(r.matches)} of the ${n(r.total)} messages already read; ${n(r.newlySettled)} would now be decided.`,
    ),
    changes.length === 0
      ? h('p', {}, 'No message already read would change hands.')
      : h(
          'div',
          {},
          h(
            'p',
            { class: 'problem' },
            `${changes.length} already read would change hands (${n(r.conflicts)} in conflict):`,
          ),
          h(
            'ul',
            {},
            changes.map((c) =>
              h(
                'li',
                {},
                h(
                  'details',
                  {},
                  h(
                    'summary',
                    {},
                    `${typeof c.subject === 'string' ? c.subject : '(no subject)'}: ${who(c.from)} → ${who(c.to)}`,
                  ),
                  h(
                    'p',
                    {},
                    `Message ${text(c.key)} now reads as ${who(c.from)}; after this lesson as ${who(c.to)}.`,
                  ),
                ),
              ),
            ),
          ),
        ),
  );
}
