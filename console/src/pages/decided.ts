/** Decided: finished tasks, and correcting a mistake by reverting one activation and teaching the right one (§10.3, §13.4). */
import { ApiError, isObject, type JsonObject } from '../api.ts';
import { h, say } from '../dom.ts';
import { fieldOfRefusal, lessonFieldsOf, renderLessonFields } from '../lesson-fields.ts';
import { extensionMeta, reportOf, statusText, text } from '../wire.ts';
import { descriptorOf, entryNoun, learnLabels, problem, reasonField, show, type Session } from '../page.ts';
import { entryPicker, listTasks, showBack, taskList } from '../tasks.ts';

export async function donePage(s: Session): Promise<void> {
  const tasks = (await listTasks(s, 'TASK_STATE_COMPLETED')).filter(
    (t) => extensionMeta(t.metadata).skill !== 'recheck_message',
  );
  for (const t of tasks) learnLabels(s, reportOf(t));
  const list = taskList(tasks, (t) => statusText(t).split('\n')[0] ?? '');
  show('Decided', tasks.length === 0 ? h('p', {}, 'Nothing decided yet.') : list);
}

export function correctionPanel(s: Session, task: JsonObject): HTMLElement {
  const panel = h('div', {});
  const open = h('button', { type: 'button' }, 'This is not right');
  open.addEventListener('click', () => {
    void s.agent
      .get(`/rules-in-force?taskId=${encodeURIComponent(text(task.id))}`)
      .then((rif) => panel.replaceChildren(decidingMarks(s, task, rif)))
      .catch((e: unknown) => panel.replaceChildren(problem(e)));
  });
  panel.append(open);
  return panel;
}

export function decidingMarks(s: Session, task: JsonObject, rif: JsonObject): HTMLElement {
  const sections = reportOf(task);
  learnLabels(s, sections);
  const rules = Array.isArray(rif.rules) ? rif.rules.filter(isObject) : [];
  const blocks = sections
    .filter((sec) => sec.winner !== null)
    .map((sec) => {
      const winner = sec.candidates.find((c) => c.name === sec.winner);
      const decidingActivations = new Set(winner?.activations ?? []);
      // The winner's lessons in force, from the activations whose marks matched this message (§13.4).
      const deciding = rules.filter(
        (r) =>
          r.collection === sec.collection &&
          r.entry === sec.winner &&
          typeof r.activation === 'number' &&
          decidingActivations.has(r.activation),
      );
      const byActivation = new Map<number, JsonObject[]>();
      for (const r of deciding) {
        const a = r.activation as number;
        byActivation.set(a, [...(byActivation.get(a) ?? []), r]);
      }
      return h(
        'section',
        { class: 'card' },
        h('h2', {}, sec.reads),
        winner !== undefined && winner.matched.length > 0
          ? h('p', {}, `What matched: ${winner.matched.join(', ')}`)
          : null,
        byActivation.size === 0
          ? h('p', {}, 'No taught lesson decided this: a person did.')
          : h(
              'ul',
              {},
              [...byActivation.values()].map((rs) =>
                h('li', {}, rs.map(lessonLine), revertControl(s, rs[0]!)),
              ),
            ),
        teachRight(s, sec.collection, text(task.id)),
      );
    });
  return h(
    'div',
    {},
    h('p', {}, `Decided under version ${text(rif.definitionVersion)} (${text(rif.versionId)}).`),
    ...blocks,
  );
}

export function lessonLine(r: JsonObject): HTMLElement {
  // §13.4: who put it there: the person, and the application or operator it came through.
  const writer = typeof r.via === 'string' && r.via !== r.taughtBy ? `, via ${text(r.via)}` : '';
  return h(
    'p',
    {},
    `${text(r.entry)}: ${text(r.describes)}. Taught by ${text(r.taughtBy)}${writer} on ${text(r.at)} (activation ${text(r.activation)}).`,
  );
}

export function revertControl(s: Session, rule: JsonObject): HTMLElement {
  const why = reasonField(`Why revert activation ${text(rule.activation)}`);
  const out = h('div', { 'aria-live': 'polite' });
  const form = h(
    'form',
    {},
    why.element,
    h('button', { type: 'submit' }, `Revert this lesson (activation ${text(rule.activation)})`),
    out,
  );
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    void s.authority
      .post('/revert', { activation: rule.activation ?? 0, taughtBy: s.person, reason: why.input.value })
      .then((r) => {
        out.replaceChildren(
          h(
            'p',
            { class: 'effect settled' },
            `Reverted: ${typeof r.describes === 'string' ? r.describes : 'done'} (now version ${text(r.definitionVersion)}). Every later lesson is kept.`,
          ),
        );
        say('Reverted.');
      })
      .catch((e: unknown) => out.replaceChildren(problem(e)));
  });
  return form;
}

export function teachRight(s: Session, collection: string, taskId: string): HTMLElement {
  const wrap = h('div', {});
  const b = h('button', { type: 'button' }, 'Teach the right one');
  b.addEventListener('click', () => {
    const declared = descriptorOf(s, collection);
    const entries = [...(s.labels.get(collection)?.keys() ?? [])]; // the fallback when /entries is absent
    const noun = entryNoun(s, collection);
    const picker = entryPicker(s, collection, entries, noun);
    const rendered = renderLessonFields(
      lessonFieldsOf(declared?.lessonFields),
      null,
      null,
      'What gives it away',
    );
    const why = reasonField('Why (kept in the history)');
    const out = h('div', { 'aria-live': 'polite' });
    const form = h(
      'form',
      { class: 'card' },
      picker.element,
      rendered.element,
      why.element,
      h('button', { type: 'submit' }, 'Teach'),
      out,
    );
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      rendered.clearProblems();
      void (async () => {
        try {
          await s.authority.post('/lessons', {
            collection,
            entry: picker.value(),
            value: rendered.value(),
            taughtBy: s.person,
            reason: why.input.value,
          });
          out.replaceChildren(await showBack(s, taskId));
        } catch (e) {
          if (e instanceof ApiError && e.code === 'LESSON_REFUSED')
            rendered.showProblem(fieldOfRefusal(e.details, e.message, rendered.value()), e.message);
          else out.replaceChildren(problem(e));
        }
      })();
    });
    wrap.replaceChildren(form);
  });
  wrap.append(b);
  return wrap;
}
