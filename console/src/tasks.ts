/** A2A tasks as the pages show them: lists, the mail card, the entry picker and show-back (§11). */
import { isObject, type JsonObject } from './api.ts';
import { h, uid } from './dom.ts';
import { mailOf, reportOf, resultTask, taskTime, text } from './wire.ts';
import { labelOf, learnLabels, type Session } from './page.ts';

export async function listTasks(s: Session, state: string): Promise<JsonObject[]> {
  const r = await s.agent.rpc('ListTasks', { status: state, pageSize: 100, historyLength: 10 });
  const tasks = Array.isArray(r.tasks) ? r.tasks.filter(isObject) : [];
  return tasks.sort((a, b) => taskTime(b).localeCompare(taskTime(a))); // newest first
}

/** Tasks as buttons that open them: the mail's subject, then `detail`. */
export function taskList(tasks: readonly JsonObject[], detail: (t: JsonObject) => string): HTMLElement {
  return h(
    'ul',
    { class: 'tasks' },
    tasks.map((t) => {
      const b = h('button', { type: 'button' }, `${mailOf(t)?.subject || '(no subject)'} · ${detail(t)}`);
      b.addEventListener('click', () => {
        location.hash = `#/task/${encodeURIComponent(text(t.id))}`;
      });
      return h('li', {}, b);
    }),
  );
}

export function mailCard(task: JsonObject): HTMLElement {
  const mail = mailOf(task);
  return h(
    'section',
    { class: 'card', 'aria-label': 'The message' },
    h('h2', {}, mail?.subject || '(no subject)'),
    h('p', {}, `From: ${mail?.from || 'unknown'}`),
    mail !== null && mail.text !== '' ? h('p', {}, mail.text.slice(0, 2000)) : null,
    mail !== null && mail.attachments.length > 0
      ? h('p', {}, `Attached: ${mail.attachments.join(', ')}`)
      : null,
  );
}

/**
 * An entry picker with search, showing entries by their labels. The authority searches its own
 * directory (GET /entries: 10,000 entries never travel to the page); the list shows the first 200
 * that match. `allowed` (a teach block's entries, §8) narrows it; an authority without /entries
 * falls back to filtering the names the console already has.
 */
export function entryPicker(s: Session, collection: string, allowed: readonly string[], noun: string) {
  const searchId = uid('search');
  const selectId = uid('entry');
  const search = h('input', { id: searchId, type: 'search', autocomplete: 'off' });
  const select = h('select', { id: selectId, size: '6', required: true });
  let asked = 0;
  const local = (q: string) =>
    allowed.filter(
      (e) => q === '' || labelOf(s, collection, e).toLowerCase().includes(q) || e.toLowerCase().includes(q),
    );
  const fill = async () => {
    const q = search.value.trim().toLowerCase();
    const mine = ++asked;
    let names: string[];
    try {
      const r = await s.authority.get(
        `/entries?collection=${encodeURIComponent(collection)}&q=${encodeURIComponent(q)}&limit=500`,
      );
      const found = Array.isArray(r.entries) ? r.entries.filter(isObject) : [];
      let labels = s.labels.get(collection);
      if (labels === undefined) s.labels.set(collection, (labels = new Map<string, string>()));
      for (const e of found)
        if (typeof e.name === 'string' && typeof e.label === 'string') labels.set(e.name, e.label);
      names = found.flatMap((e) => (typeof e.name === 'string' ? [e.name] : []));
      if (allowed.length > 0) names = names.filter((n) => allowed.includes(n));
    } catch {
      names = local(q);
    }
    if (mine !== asked) return; // a later keystroke already answered
    const previous = select.value;
    const shown = names.slice(0, 200);
    select.replaceChildren(...shown.map((e) => h('option', { value: e }, labelOf(s, collection, e))));
    if (shown.includes(previous)) select.value = previous;
    else if (shown.length === 1) select.value = shown[0]!;
    else select.selectedIndex = -1;
  };
  search.addEventListener('input', () => void fill());
  void fill();
  return {
    element: h(
      'div',
      {},
      h('div', { class: 'field' }, h('label', { for: searchId }, `Search ${noun}s`), search),
      h('div', { class: 'field' }, h('label', { for: selectId }, `Which ${noun}`), select),
    ),
    value: () => select.value,
  };
}

/** §11: the effect, not "Saved": re-read the task's message under the version active now. */
export async function showBack(s: Session, taskId: string): Promise<HTMLElement> {
  const r = resultTask(
    await s.agent.rpc('SendMessage', {
      message: {
        messageId: crypto.randomUUID(),
        role: 'ROLE_USER',
        parts: [{ data: { recheck: { taskId } } }],
      },
    }),
  );
  const sections = reportOf(r);
  learnLabels(s, sections);
  return h(
    'section',
    { 'aria-label': 'What the agent makes of it now' },
    h('h2', {}, 'What the agent makes of it now'),
    sections.map((sec) =>
      h(
        'div',
        { class: `effect ${sec.settled ? 'settled' : 'unsettled'}` },
        h('p', {}, sec.reads || (sec.settled ? 'Settled.' : 'Still cannot tell.')),
        sec.settled
          ? null
          : h(
              'div',
              {},
              h('p', {}, 'What it saw:'),
              h(
                'ul',
                {},
                sec.candidates
                  .filter((c) => c.matched.length > 0)
                  .map((c) =>
                    h('li', {}, `${c.label}: score ${c.score ?? 0}, matched ${c.matched.join(', ')}`),
                  ),
                sec.candidates.every((c) => c.matched.length === 0) ? h('li', {}, 'Nothing matched.') : null,
              ),
              h('p', {}, 'Fix the lesson: correct it from the Decided page or teach a narrower one.'),
            ),
      ),
    ),
  );
}
