/** History: every activation, the difference between two versions, rollback and erase (§10.3, §14). */
import { isObject, type Json, type JsonObject } from '../api.ts';
import { h, uid } from '../dom.ts';
import { text } from '../wire.ts';
import { problem, reasonField, show, type Session } from '../page.ts';

export async function historyPage(s: Session): Promise<void> {
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

export async function versionDiff(
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

/** One admin action of the history page: a value, a reason, a button, and what the server answered. */
export function actionForm(
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

export function rollbackForm(s: Session): HTMLElement {
  return actionForm(
    'Roll back',
    { label: 'Make this version active again', type: 'number', button: 'Roll back' },
    'Why roll back',
    (to, reason) => s.authority.post('/rollback', { to: Number(to), taughtBy: s.person, reason }),
    (r) => h('p', {}, `Now version ${text(r.definitionVersion)}: ${text(r.describes, '')}`),
  );
}

export function eraseForm(s: Session): HTMLElement {
  return actionForm(
    'Erase a personal identifier',
    { label: 'Identifier (an address, a name)', type: 'text', button: 'Erase' },
    'Why erase it',
    (identifier, reason) => s.authority.post('/erase', { identifier, taughtBy: s.person, reason }),
    eraseReport,
  );
}

/** What an erase removed: every count the server reports (per-store counts when present). */
export function eraseReport(r: JsonObject): HTMLElement {
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

/** §13.4: the authenticated writer of an activation, when it is not the person taught by. */
export function writtenBy(a: Record<string, unknown>): string | null {
  const w = a.writer;
  if (!isObject(w) || typeof w.principal !== 'string' || w.principal === a.taughtBy) return null;
  return `written by ${w.principal}${typeof w.kind === 'string' ? ` (${w.kind})` : ''}`;
}
