/**
 * "Is it learning?": questions per hundred messages by day and by week for the tenant, with the
 * lessons taught beside it, counted from the server's own records: the triage tasks (A2A ListTasks,
 * every page; a question is an agent message in a task's history carrying a teach block, §8) and
 * the authority's history (activations that taught). Drawn as an SVG bar chart with a data table.
 *
 * Deliberately not here: any collection's name (questions about every learnable count alike).
 */
import { isObject, type Api, type JsonObject } from './api.ts';
import { h } from './dom.ts';
import { extensionMeta } from './wire.ts';

interface Bucket {
  messages: number;
  questions: number;
  lessons: number;
}

const MAX_PAGES = 50;

function questionsIn(task: JsonObject): number {
  const history = Array.isArray(task.history) ? task.history : [];
  return history.filter(
    (m) => isObject(m) && m.role === 'ROLE_AGENT' && isObject(extensionMeta(m.metadata).teach),
  ).length;
}

function firstSeen(task: JsonObject): string {
  const history = Array.isArray(task.history) ? task.history : [];
  const stamps = history.flatMap((m) =>
    isObject(m) && isObject(m.metadata) && typeof m.metadata.timestamp === 'string'
      ? [m.metadata.timestamp]
      : [],
  );
  const status =
    isObject(task.status) && typeof task.status.timestamp === 'string' ? task.status.timestamp : '';
  return stamps[0] ?? status;
}

/** Monday of the ISO week of a yyyy-mm-dd day. */
function weekOf(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return `week of ${d.toISOString().slice(0, 10)}`;
}

export async function renderLearning(
  authority: Api,
  agent: Api,
  show: (title: string, ...content: (Node | null)[]) => void,
): Promise<void> {
  const days = new Map<string, Bucket>();
  const bucket = (day: string) => {
    let b = days.get(day);
    if (b === undefined) days.set(day, (b = { messages: 0, questions: 0, lessons: 0 }));
    return b;
  };
  let pageToken = '';
  for (let page = 0; page < MAX_PAGES; page++) {
    const r = await agent.rpc('ListTasks', {
      pageSize: 100,
      historyLength: 20,
      ...(pageToken === '' ? {} : { pageToken }),
    });
    for (const t of Array.isArray(r.tasks) ? r.tasks.filter(isObject) : []) {
      if (extensionMeta(t.metadata).skill !== 'triage_inbound') continue;
      const day = firstSeen(t).slice(0, 10);
      if (day === '') continue;
      const b = bucket(day);
      b.messages += 1;
      b.questions += questionsIn(t);
    }
    pageToken = typeof r.nextPageToken === 'string' ? r.nextPageToken : '';
    if (pageToken === '') break;
  }
  const history = await authority.get('/history?limit=1000');
  for (const a of Array.isArray(history.history) ? history.history.filter(isObject) : []) {
    if (a.action === 'teach' && typeof a.at === 'string') bucket(a.at.slice(0, 10)).lessons += 1;
  }
  const weeks = new Map<string, Bucket>();
  for (const [day, b] of days) {
    const w = weeks.get(weekOf(day)) ?? { messages: 0, questions: 0, lessons: 0 };
    weeks.set(weekOf(day), {
      messages: w.messages + b.messages,
      questions: w.questions + b.questions,
      lessons: w.lessons + b.lessons,
    });
  }
  const sorted = (m: Map<string, Bucket>) => [...m.entries()].sort(([a], [b]) => a.localeCompare(b));
  show(
    'Is it learning?',
    h(
      'p',
      {},
      "Questions the agent asked per hundred messages it read (from its own tasks), beside the lessons taught (from the authority's history).",
    ),
    chart('By day', sorted(days)),
    chart('By week', sorted(weeks)),
  );
}

function per100(b: Bucket): number {
  return b.messages === 0 ? 0 : Math.round((b.questions / b.messages) * 1000) / 10;
}

function chart(title: string, rows: [string, Bucket][]): HTMLElement {
  const ns = 'http://www.w3.org/2000/svg';
  const width = 40 + rows.length * 60;
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', `0 -14 ${width} 154`);
  svg.setAttribute('width', String(Math.min(width, 900)));
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', `${title}: questions per hundred messages and lessons taught`);
  svg.setAttribute('class', 'bars');
  const max = Math.max(1, ...rows.map(([, b]) => Math.max(per100(b), b.lessons)));
  rows.forEach(([, b], i) => {
    const x = 30 + i * 60;
    for (const [cls, v, dx] of [
      ['q', per100(b), 0],
      ['t', b.lessons, 22],
    ] as const) {
      const r = document.createElementNS(ns, 'rect');
      const height = (v / max) * 100;
      r.setAttribute('class', cls);
      r.setAttribute('x', String(x + dx));
      r.setAttribute('y', String(110 - height));
      r.setAttribute('width', '20');
      r.setAttribute('height', String(height));
      svg.append(r);
    }
  });
  return h(
    'section',
    { class: 'card' },
    h('h2', {}, title),
    rows.length === 0 ? h('p', {}, 'No message read yet.') : svg,
    h(
      'table',
      {},
      h('caption', {}, `${title}: dark bars questions per hundred, green bars lessons taught`),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Period', 'Messages', 'Questions', 'Per hundred', 'Lessons taught'].map((t) =>
            h('th', { scope: 'col' }, t),
          ),
        ),
      ),
      h(
        'tbody',
        {},
        rows.map(([k, b]) =>
          h(
            'tr',
            {},
            [k, String(b.messages), String(b.questions), String(per100(b)), String(b.lessons)].map((t) =>
              h('td', {}, t),
            ),
          ),
        ),
      ),
    ),
  );
}
