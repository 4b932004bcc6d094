/**
 * Senders (issue 38): every sender the agent has a track record for, the entries its mail was
 * read or answered as, whether a message carrying only that sender settles (and the agent's words
 * for why not), and the lessons resting on it, each taken back in one step (revert, §10.3).
 */
import { isObject, type JsonObject } from '../api.ts';
import { h } from '../dom.ts';
import { text } from '../wire.ts';
import { show, type Session } from '../page.ts';
import { revertControl } from './decided.ts';

export async function sendersPage(s: Session): Promise<void> {
  // The server's default collection: the console names none (§6.3).
  const r = await s.agent.get('/senders?limit=200');
  const senders = Array.isArray(r.senders) ? r.senders.filter(isObject) : [];
  const rows = senders.map((x) => senderRow(s, x));
  const table = h(
    'table',
    { class: 'senders' },
    h('caption', {}, 'Who writes for whom: each sender, what its mail was read as, and what rests on it'),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        [
          'Sender',
          'Its mail was read or answered as',
          'Does it settle a message alone?',
          'Lessons resting on it',
        ].map((t) => h('th', { scope: 'col' }, t)),
      ),
    ),
    h('tbody', {}, rows),
  );
  show('Senders', senders.length === 0 ? h('p', {}, 'No mail has been read or answered yet.') : table);
}

function senderRow(s: Session, x: JsonObject): HTMLElement {
  const readAs = Array.isArray(x.readAs) ? x.readAs.filter(isObject) : [];
  const lessons = Array.isArray(x.lessons) ? x.lessons.filter(isObject) : [];
  const alone = x.settlesAlone === true;
  return h(
    'tr',
    { 'data-sender': text(x.sender) },
    h('th', { scope: 'row' }, text(x.sender)),
    h(
      'td',
      {},
      h(
        'ul',
        {},
        readAs.map((a) =>
          h(
            'li',
            {},
            `${text(a.label)}: ${text(a.messages)} message${a.messages === 1 ? '' : 's'}, the last on ${text(a.lastAt).slice(0, 10)}`,
          ),
        ),
      ),
    ),
    h('td', { class: alone ? 'settled' : 'unsettled' }, alone ? 'Yes. ' : 'No. ', text(x.reads, '')),
    h(
      'td',
      {},
      lessons.length === 0
        ? 'None'
        : h(
            'ul',
            {},
            lessons.map((l) =>
              h(
                'li',
                {},
                `${text(l.label)}: ${text(l.describes)}. Taught by ${text(l.taughtBy)} (activation ${text(l.activation)}).`,
                revertControl(s, l),
              ),
            ),
          ),
    ),
  );
}
