/**
 * §6 faults: the card as a build with one wrong declaration would serve it. Each edits the
 * extension's entry on the card the proxy passes back, and nothing else.
 */
import { EXTENSION_URI } from '../../src/domain/extension.ts';
import type { Wire } from '../support/calls.ts';
import type { Exchange } from './fault-proxy.ts';
import { CARD_PATH, declaration } from './fault-wire.ts';
import type { NamedFault } from './faults.ts';

/** A fault that edits the declaration of the card, and only the card. */
function cardFault(
  name: string,
  edit: (ext: Wire, card: Wire) => void,
  fails: NamedFault['fails'],
): NamedFault {
  return {
    name,
    fault: {
      response(body: Wire, x: Exchange) {
        if (x.path !== CARD_PATH) return body as unknown;
        edit(declaration(body, EXTENSION_URI), body);
        return body as unknown;
      },
    },
    fails,
  };
}

const first = (ext: Wire): Wire => ext.params.learnables[0];

export const cardFaults: readonly NamedFault[] = [
  {
    // Issue 50: a build without the extension: its card does not declare it and it never activates
    // it. The card's own checks come before the adapter's fit, so this fails §6.1, not exit 2.
    name: 'a card that does not declare the extension',
    fault: {
      requestHeaders(headers: Headers) {
        headers.delete('a2a-extensions');
        headers.delete('x-a2a-extensions');
      },
      response(body: Wire, x: Exchange) {
        if (x.path !== CARD_PATH) return body as unknown;
        body.capabilities.extensions = (body.capabilities.extensions ?? []).filter(
          (e: Wire) => e?.uri !== EXTENSION_URI,
        );
        return body as unknown;
      },
    },
    fails: [{ id: 'card.declared', section: '§6.1' }],
  },
  cardFault(
    'the declaration required',
    (ext) => {
      ext.required = true;
    },
    [{ id: 'card.declared', section: '§6.1' }],
  ),
  cardFault(
    'params that do not validate',
    (ext) => {
      ext.params.teachMethod = 42;
    },
    [{ id: 'card.schema', section: '§6' }],
  ),
  cardFault(
    'a collection declared twice',
    (ext) => {
      ext.params.learnables.push(structuredClone(first(ext)));
    },
    [{ id: 'card.collections-unique', section: '§6.2' }],
  ),
  cardFault(
    'a placeholder how',
    (ext) => {
      first(ext).how = 'TODO';
    },
    [{ id: 'card.how-decided-by', section: '§6.2' }],
  ),
  cardFault(
    'a lesson field named twice',
    (ext) => {
      const fields: Wire[] = first(ext).lessonFields;
      fields.push({ ...fields[0], label: `${String(fields[0].label)} (again)` });
    },
    [{ id: 'card.lesson-fields', section: '§6.3' }],
  ),
  cardFault(
    'a skill the card does not have',
    (ext) => {
      first(ext).skills = [...(first(ext).skills ?? []), 'no_such_skill'];
    },
    [{ id: 'card.skills', section: '§6.2' }],
  ),
];
