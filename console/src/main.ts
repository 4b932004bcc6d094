/**
 * The operator console (issue 17): a conformant client (§3) that holds the human. It signs in with
 * the operator's own token, reads the agent card, lists questions (A2A ListTasks), renders lesson
 * fields blind (§6.3), dry-runs a lesson (§13.1), teaches through the authority (§12.1), shows the
 * effect by show-back (§11, never "Saved"), corrects a mistake by reverting one activation (§10.3,
 * §13.4), and shows history, rollback and erase (§14).
 *
 * Deliberately not here: any one learnable's words or lesson-value keys (everything comes from the
 * card and the teach block), and any route the server does not expose publicly.
 */
import { ApiError, createApi, EXTENSION_URI, isObject, type Api, type Json, type JsonObject } from './api.ts';
import { h, say, uid } from './dom.ts';
import { fieldOfRefusal, lessonFieldsOf, renderLessonFields } from './lesson-fields.ts';
import { renderLearning } from './learning.ts';
import {
  extensionMeta,
  mailOf,
  reportOf,
  resultTask,
  statusText,
  taskState,
  taskTime,
  teachBlockOf,
  text,
  type ReportSection,
  type TeachBlock,
} from './wire.ts';

interface Session {
  readonly agent: Api;
  readonly authority: Api;
  /** Who lessons are taught by: the signed-in person (§9 taughtBy). */
  readonly person: string;
  readonly learnables: JsonObject[];
  /** Entry labels learned from readings: collection -> entry -> label. */
  readonly labels: Map<string, Map<string, string>>;
}

const main = document.getElementById('main') as HTMLElement;
const STORE_KEY = 'learnables-console';
let session: Session | null = null;

function show(title: string, ...content: (Node | null)[]): void {
  document.title = `${title} · Operator console`;
  main.replaceChildren(h('h1', {}, title), ...content.filter((c): c is Node => c !== null));
  for (const a of document.querySelectorAll('#nav a')) {
    if (a.getAttribute('href') === location.hash) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function descriptorOf(s: Session, collection: string): JsonObject | null {
  return s.learnables.find((l) => l.collection === collection) ?? null;
}

function entryNoun(s: Session, collection: string): string {
  const d = descriptorOf(s, collection);
  return d !== null && typeof d.entry === 'string' ? d.entry : 'entry';
}

function labelOf(s: Session, collection: string, entry: string): string {
  return s.labels.get(collection)?.get(entry) ?? entry;
}

function learnLabels(s: Session, sections: readonly ReportSection[]): void {
  for (const sec of sections) {
    let m = s.labels.get(sec.collection);
    if (m === undefined) s.labels.set(sec.collection, (m = new Map<string, string>()));
    for (const c of sec.candidates) if (c.label !== '') m.set(c.name, c.label);
  }
}

// ---- sign in -------------------------------------------------------------------------------------

function signInPage(problem: string | null): void {
  const tokenId = uid('token');
  const authUrlId = uid('auth-url');
  const authTokenId = uid('auth-token');
  const personId = uid('person');
  const form = h(
    'form',
    { class: 'card' },
    h(
      'div',
      { class: 'field' },
      h('label', { for: tokenId }, 'Your token'),
      h('input', { id: tokenId, type: 'password', required: true, autocomplete: 'off' }),
    ),
    h(
      'p',
      { class: 'help' },
      'On first start the server prints a token for the demo tenant and saves it in data/demo-token.',
    ),
    h(
      'div',
      { class: 'field' },
      h('label', { for: personId }, 'Who is teaching'),
      h('input', { id: personId, type: 'email', autocomplete: 'email' }),
      h(
        'p',
        { class: 'help' },
        "Only when the token is an application's (the demo token is): the person it writes for, e.g. dana@warehouse.example. A person's own token always teaches as that person (§9).",
      ),
    ),
    h(
      'details',
      {},
      h('summary', {}, 'The authority runs in another process'),
      h(
        'div',
        { class: 'field' },
        h('label', { for: authUrlId }, 'Authority address'),
        h('input', { id: authUrlId, type: 'url', autocomplete: 'off' }),
      ),
      h(
        'div',
        { class: 'field' },
        h('label', { for: authTokenId }, 'Authority token'),
        h('input', { id: authTokenId, type: 'password', autocomplete: 'off' }),
      ),
    ),
    problem === null ? null : h('p', { class: 'problem', role: 'alert' }, problem),
    h('button', { type: 'submit' }, 'Sign in'),
  );
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const value = (id: string) => (document.getElementById(id) as HTMLInputElement).value.trim();
    const saved = {
      token: value(tokenId),
      authorityUrl: value(authUrlId),
      authorityToken: value(authTokenId),
      person: value(personId),
    };
    void signIn(saved).then((ok) => {
      if (ok) sessionStorage.setItem(STORE_KEY, JSON.stringify(saved));
    });
  });
  show('Sign in', form);
  document.getElementById(tokenId)?.focus();
}

async function signIn(saved: {
  token: string;
  authorityUrl: string;
  authorityToken: string;
  person?: string;
}): Promise<boolean> {
  const agent = createApi(location.origin, saved.token);
  const authority =
    saved.authorityUrl === ''
      ? agent
      : createApi(saved.authorityUrl.replace(/\/+$/, ''), saved.authorityToken || saved.token);
  try {
    const [card, who] = await Promise.all([agent.card(), authority.get('/whoami')]);
    await agent.rpc('ListTasks', { pageSize: 1 }); // the token must open the agent too
    const caps = isObject(card.capabilities) ? card.capabilities : {};
    const exts = Array.isArray(caps.extensions) ? caps.extensions : [];
    const ext = exts.find((e) => isObject(e) && e.uri === EXTENSION_URI);
    const params = isObject(ext) && isObject(ext.params) ? ext.params : {};
    const learnables = Array.isArray(params.learnables) ? params.learnables.filter(isObject) : [];
    // §9, §13.2: a person's token teaches as that person; an application names the person it writes for.
    const own = typeof who.principal === 'string' ? who.principal : '';
    const person = who.kind === 'person' ? own : (saved.person ?? '');
    if (person === '') {
      signInPage(
        `This token belongs to the application ${own}, which writes for a person: fill in who is teaching, or sign in with your own person token.`,
      );
      return false;
    }
    session = {
      agent,
      authority,
      person,
      learnables,
      labels: new Map(),
    };
    (document.getElementById('nav') as HTMLElement).hidden = false;
    (document.getElementById('who') as HTMLElement).textContent =
      `Signed in as ${session.person}${person === own ? '' : `, via ${own}`} (${typeof who.tenant === 'string' ? who.tenant : ''})`;
    if (location.hash === '' || location.hash === '#/') location.hash = '#/questions';
    else route();
    return true;
  } catch (e) {
    signInPage(`That token did not open this server: ${errorText(e)}`);
    return false;
  }
}

// ---- how it decides (§6.2) ------------------------------------------------------------------------

/** What `decidedBy` lets the interface promise (§6.2 rationale). */
function promiseOf(decidedBy: string): string {
  if (decidedBy === 'rules')
    return 'A lesson takes effect on the next message, deterministically: the same input reads the same way every time.';
  if (decidedBy === 'model')
    return 'A lesson is one example among many: its effect is statistical, so check the show-back after teaching.';
  if (decidedBy === 'hybrid')
    return 'Rules and a model decide together: a lesson usually takes effect, but not with certainty.';
  return `The agent says it decides by "${decidedBy}"; the console promises nothing about a lesson's effect.`;
}

function decidesPage(s: Session): void {
  const items = s.learnables.map((l) => {
    const fields = lessonFieldsOf(l.lessonFields);
    const decidedBy = typeof l.decidedBy === 'string' ? l.decidedBy : '';
    return h(
      'section',
      { class: 'card' },
      h('h2', {}, `Teaches ${typeof l.teaches === 'string' ? l.teaches : text(l.collection)}`),
      h('p', {}, typeof l.how === 'string' ? l.how : ''),
      h('p', {}, h('strong', {}, `Decided by ${decidedBy}. `), promiseOf(decidedBy)),
      h('p', {}, 'A lesson asks for:'),
      h(
        'ul',
        {},
        fields.map((f) => h('li', {}, `${f.label} (${f.kind})`)),
      ),
    );
  });
  show(
    'How the agent decides today',
    ...(items.length > 0 ? items : [h('p', {}, 'The agent declares nothing it can be taught.')]),
  );
}

// ---- questions ------------------------------------------------------------------------------------

async function listTasks(s: Session, state: string): Promise<JsonObject[]> {
  const r = await s.agent.rpc('ListTasks', { status: state, pageSize: 100, historyLength: 10 });
  const tasks = Array.isArray(r.tasks) ? r.tasks.filter(isObject) : [];
  return tasks.sort((a, b) => taskTime(b).localeCompare(taskTime(a))); // newest first
}

/** Tasks as buttons that open them: the mail's subject, then `detail`. */
function taskList(tasks: readonly JsonObject[], detail: (t: JsonObject) => string): HTMLElement {
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

async function questionsPage(s: Session): Promise<void> {
  const tasks = await listTasks(s, 'TASK_STATE_INPUT_REQUIRED');
  if (tasks.length === 0) {
    show('Questions', h('p', {}, 'No question is waiting. Every message so far was decided.'));
    return;
  }
  const list = taskList(tasks, (t) => `from ${mailOf(t)?.from || 'unknown'}`);
  show('Questions', h('p', {}, `${tasks.length} waiting, newest first.`), list);
}

function mailCard(task: JsonObject): HTMLElement {
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

async function taskPage(s: Session, taskId: string): Promise<void> {
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

/**
 * An entry picker with search, showing entries by their labels. The authority searches its own
 * directory (GET /entries: 10,000 entries never travel to the page); the list shows the first 200
 * that match. `allowed` (a teach block's entries, §8) narrows it; an authority without /entries
 * falls back to filtering the names the console already has.
 */
function entryPicker(s: Session, collection: string, allowed: readonly string[], noun: string) {
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

function answerForm(s: Session, task: JsonObject, teach: TeachBlock): HTMLElement {
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

function dryRunReport(s: Session, collection: string, r: JsonObject): HTMLElement {
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

/** §11: the effect, not "Saved": re-read the task's message under the version active now. */
async function showBack(s: Session, taskId: string): Promise<HTMLElement> {
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

// ---- correcting a mistake (§10.3, §13.4) --------------------------------------------------------

async function donePage(s: Session): Promise<void> {
  const tasks = (await listTasks(s, 'TASK_STATE_COMPLETED')).filter(
    (t) => extensionMeta(t.metadata).skill !== 'recheck_message',
  );
  for (const t of tasks) learnLabels(s, reportOf(t));
  const list = taskList(tasks, (t) => statusText(t).split('\n')[0] ?? '');
  show('Decided', tasks.length === 0 ? h('p', {}, 'Nothing decided yet.') : list);
}

function correctionPanel(s: Session, task: JsonObject): HTMLElement {
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

function decidingMarks(s: Session, task: JsonObject, rif: JsonObject): HTMLElement {
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

function lessonLine(r: JsonObject): HTMLElement {
  // §13.4: who put it there: the person, and the application or operator it came through.
  const writer = typeof r.via === 'string' && r.via !== r.taughtBy ? `, via ${text(r.via)}` : '';
  return h(
    'p',
    {},
    `${text(r.entry)}: ${text(r.describes)}. Taught by ${text(r.taughtBy)}${writer} on ${text(r.at)} (activation ${text(r.activation)}).`,
  );
}

function reasonField(labelText: string): { element: HTMLElement; input: HTMLInputElement } {
  const id = uid('why');
  const input = h('input', { id, type: 'text', required: true, autocomplete: 'off' });
  return { element: h('div', { class: 'field' }, h('label', { for: id }, labelText), input), input };
}

function revertControl(s: Session, rule: JsonObject): HTMLElement {
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

function teachRight(s: Session, collection: string, taskId: string): HTMLElement {
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

// ---- history, versions, rollback, erase (§10.3, §14) ----------------------------------------------

async function historyPage(s: Session): Promise<void> {
  const r = await s.authority.get('/history?limit=50');
  const history = Array.isArray(r.history) ? r.history.filter(isObject) : [];
  const diffOut = h('div', { 'aria-live': 'polite' });
  const rows = history.map((a, i) => {
    const older = history[i + 1];
    const diff = h('button', { type: 'button' }, `Compare v${text(a.definitionVersion)} with the one before`);
    diff.addEventListener('click', () => {
      void versionDiff(s, older?.versionId, a.versionId)
        .then((n) => diffOut.replaceChildren(n))
        .catch((e: unknown) => diffOut.replaceChildren(problem(e)));
    });
    const extra = Object.entries(a)
      .filter(
        ([k, v]) =>
          typeof v === 'string' &&
          ![
            'versionId',
            'previousVersionId',
            'taughtBy',
            'reason',
            'describes',
            'collection',
            'entry',
            'action',
            'at',
          ].includes(k),
      )
      .map(([k, v]) => `${k}: ${text(v)}`)
      .join('; ');
    return h(
      'tr',
      {},
      h('td', {}, `v${text(a.definitionVersion)}`),
      h('td', {}, text(a.action, '')),
      h(
        'td',
        {},
        `${a.entry === null || a.entry === undefined ? '' : `${text(a.entry)}: `}${text(a.describes, '')}`,
      ),
      h(
        'td',
        {},
        text(a.taughtBy, ''),
        writtenBy(a) === null ? null : h('br'),
        writtenBy(a),
        extra === '' ? null : h('br'),
        extra,
      ),
      h('td', {}, text(a.reason, '')),
      h('td', {}, text(a.at, ''), a.tombstoned === true ? ' (erased)' : ''),
      h('td', {}, older === undefined ? null : diff),
    );
  });
  const table = h(
    'table',
    {},
    h('caption', {}, 'Every activation, newest first'),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ['Version', 'Action', 'What it describes', 'Who', 'Why', 'When', ''].map((t) =>
          h('th', { scope: 'col' }, t),
        ),
      ),
    ),
    h('tbody', {}, rows),
  );
  show('History', table, diffOut, rollbackForm(s), eraseForm(s));
}

async function versionDiff(
  s: Session,
  olderId: Json | undefined,
  newerId: Json | undefined,
): Promise<HTMLElement> {
  const [a, b] = await Promise.all([
    s.authority.get(`/versions/${encodeURIComponent(text(olderId))}`),
    s.authority.get(`/versions/${encodeURIComponent(text(newerId))}`),
  ]);
  const entries = (v: JsonObject) => {
    const m = new Map<string, string>();
    const cols = isObject(v.collections) ? v.collections : {};
    for (const [c, es] of Object.entries(cols))
      if (isObject(es))
        for (const [e, content] of Object.entries(es)) m.set(`${c} / ${e}`, JSON.stringify(content));
    return m;
  };
  const before = entries(a);
  const after = entries(b);
  const lines: string[] = [];
  for (const [k, v] of after)
    if (!before.has(k)) lines.push(`added ${k}`);
    else if (before.get(k) !== v) lines.push(`changed ${k}`);
  for (const k of before.keys()) if (!after.has(k)) lines.push(`removed ${k}`);
  return h(
    'section',
    { class: 'card', 'aria-label': 'Difference' },
    h('h2', {}, 'Difference'),
    h(
      'ul',
      {},
      (lines.length === 0 ? ['no entry changed'] : lines).map((l) => h('li', {}, l)),
    ),
  );
}

/** A refusal or fault, in the server's words, shown beside what the person was doing. */
function problem(e: unknown): HTMLElement {
  return h('p', { class: 'problem', role: 'alert' }, errorText(e));
}

/** One admin action of the history page: a value, a reason, a button, and what the server answered. */
function actionForm(
  title: string,
  field: { label: string; type: string; button: string },
  reasonLabel: string,
  send: (value: string, reason: string) => Promise<JsonObject>,
  render: (r: JsonObject) => Node,
): HTMLElement {
  const id = uid('action');
  const input = h('input', { id, type: field.type, required: true, autocomplete: 'off' });
  const why = reasonField(reasonLabel);
  const out = h('div', { 'aria-live': 'polite' });
  const form = h(
    'form',
    { class: 'card', 'aria-label': title },
    h('h2', {}, title),
    h('div', { class: 'field' }, h('label', { for: id }, field.label), input),
    why.element,
    h('button', { type: 'submit' }, field.button),
    out,
  );
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    void send(input.value, why.input.value)
      .then((r) => out.replaceChildren(render(r)))
      .catch((e: unknown) => out.replaceChildren(problem(e)));
  });
  return form;
}

function rollbackForm(s: Session): HTMLElement {
  return actionForm(
    'Roll back',
    { label: 'Make this version active again', type: 'number', button: 'Roll back' },
    'Why roll back',
    (to, reason) => s.authority.post('/rollback', { to: Number(to), taughtBy: s.person, reason }),
    (r) => h('p', {}, `Now version ${text(r.definitionVersion)}: ${text(r.describes, '')}`),
  );
}

function eraseForm(s: Session): HTMLElement {
  return actionForm(
    'Erase a personal identifier',
    { label: 'Identifier (an address, a name)', type: 'text', button: 'Erase' },
    'Why erase it',
    (identifier, reason) => s.authority.post('/erase', { identifier, taughtBy: s.person, reason }),
    eraseReport,
  );
}

/** What an erase removed: every count the server reports (per-store counts when present). */
function eraseReport(r: JsonObject): HTMLElement {
  const lines: string[] = [];
  const walk = (prefix: string, v: Json) => {
    if (typeof v === 'number') lines.push(`${prefix}: ${v}`);
    else if (Array.isArray(v)) lines.push(`${prefix}: ${v.length}`);
    else if (typeof v === 'string') lines.push(`${prefix}: ${v}`);
    else if (isObject(v))
      for (const [k, x] of Object.entries(v)) walk(prefix === '' ? k : `${prefix} ${k}`, x);
  };
  walk('', r);
  return h(
    'section',
    { class: 'card', 'aria-label': 'Erased' },
    h('h2', {}, 'Erased'),
    h(
      'ul',
      {},
      lines.map((l) => h('li', {}, l)),
    ),
  );
}

// ---- routing -------------------------------------------------------------------------------------

function route(): void {
  const s = session;
  if (s === null) return;
  say('');
  const [, page, arg] = location.hash.split('/');
  const run = (p: Promise<void> | void) =>
    void Promise.resolve(p)
      .then(() => main.focus())
      .catch((e: unknown) => show('Something went wrong', problem(e)));
  if (page === 'task' && arg !== undefined) run(taskPage(s, decodeURIComponent(arg)));
  else if (page === 'done') run(donePage(s));
  else if (page === 'decides') run(decidesPage(s));
  else if (page === 'history') run(historyPage(s));
  else if (page === 'learning') run(renderLearning(s.authority, s.agent, show));
  else run(questionsPage(s));
}

window.addEventListener('hashchange', route);
const saved: unknown = JSON.parse(sessionStorage.getItem(STORE_KEY) ?? 'null');
if (isObject(saved) && typeof saved.token === 'string') {
  void signIn({
    token: saved.token,
    authorityUrl: typeof saved.authorityUrl === 'string' ? saved.authorityUrl : '',
    authorityToken: typeof saved.authorityToken === 'string' ? saved.authorityToken : '',
  });
} else signInPage(null);

/** §13.4: the authenticated writer of an activation, when it is not the person taught by. */
function writtenBy(a: Record<string, unknown>): string | null {
  const w = a.writer;
  if (!isObject(w) || typeof w.principal !== 'string' || w.principal === a.taughtBy) return null;
  return `written by ${w.principal}${typeof w.kind === 'string' ? ` (${w.kind})` : ''}`;
}
