/**
 * Deliveries (issue 40): every delivery webhook of the tenant and its A2A push notifications, with
 * how their deliveries went (delivered, still owed, given up) and the last error, so an operator
 * sees a receiver that is down before anyone misses a decision.
 */
import { isObject, type JsonObject } from '../api.ts';
import { h } from '../dom.ts';
import { text } from '../wire.ts';
import { show, type Session } from '../page.ts';

export async function deliveriesPage(s: Session): Promise<void> {
  const r = await s.agent.get('/deliveries');
  const endpoints = Array.isArray(r.endpoints) ? r.endpoints.filter(isObject) : [];
  const push = isObject(r.push) ? r.push : {};
  const rows = [
    row('A2A push notifications (every config of every task)', '', push),
    ...endpoints.map((e) =>
      row(text(e.url), Array.isArray(e.events) ? e.events.map((x) => text(x)).join(', ') : '', e),
    ),
  ];
  const table = h(
    'table',
    { class: 'deliveries' },
    h('caption', {}, 'Who hears of each decision, and how the deliveries went'),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ['Receiver', 'Told of', 'Delivered', 'Still owed', 'Given up', 'Last error'].map((t) =>
          h('th', { scope: 'col' }, t),
        ),
      ),
    ),
    h('tbody', {}, rows),
  );
  show('Deliveries', table);
}

function row(name: string, events: string, x: JsonObject): HTMLElement {
  const failed = typeof x.failed === 'number' ? x.failed : 0;
  const error = typeof x.lastError === 'string' ? x.lastError : null;
  return h(
    'tr',
    { class: failed > 0 || error !== null ? 'unsettled' : '' },
    h('th', { scope: 'row' }, name),
    h('td', {}, events === '' ? 'input-required, decided' : events),
    h('td', {}, text(x.delivered, '0')),
    h('td', {}, text(x.pending, '0')),
    h('td', {}, String(failed)),
    h(
      'td',
      {},
      error === null
        ? 'None'
        : `${error}${typeof x.lastErrorAt === 'string' ? ` (${x.lastErrorAt.slice(0, 19)})` : ''}`,
    ),
  );
}
