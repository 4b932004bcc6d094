/** How it decides (§6.2): each learnable the card declares, and what its decidedBy lets the console promise. */
import { h } from '../dom.ts';
import { lessonFieldsOf } from '../lesson-fields.ts';
import { text } from '../wire.ts';
import { show, type Session } from '../page.ts';

/** What `decidedBy` lets the interface promise (§6.2 rationale). */
export function promiseOf(decidedBy: string): string {
  if (decidedBy === 'rules')
    return 'A lesson takes effect on the next message, deterministically: the same input reads the same way every time.';
  if (decidedBy === 'model')
    return 'A lesson is one example among many: its effect is statistical, so check the show-back after teaching.';
  if (decidedBy === 'hybrid')
    return 'Rules and a model decide together: a lesson usually takes effect, but not with certainty.';
  return `The agent says it decides by "${decidedBy}"; the console promises nothing about a lesson's effect.`;
}

export function decidesPage(s: Session): void {
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
