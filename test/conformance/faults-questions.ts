/**
 * §7, §8 and §11 faults: activation, the question's teach block, and show-back, as a build with one
 * fault would answer them. Each edits the answers of the calls it names, and no other.
 */
import { EXTENSION_URI } from '../../src/domain/extension.ts';
import type { Wire } from '../support/calls.ts';
import type { Exchange } from './fault-proxy.ts';
import { dropEcho, objects, sendHolds, sentMessage } from './fault-wire.ts';
import type { NamedFault } from './faults.ts';

/** What marks a show-back request: the triage adapter's `{ recheck: { taskId } }`. */
const SHOW_BACK = '"recheck"';

/** The teach blocks in an answer (§8: the question's metadata, keyed by the extension's URI). */
function* blocks(body: unknown): Generator<Record<string, unknown>> {
  for (const o of objects(body)) {
    const inner = o[EXTENSION_URI] as Wire;
    if (inner?.teach !== undefined) yield inner.teach;
  }
}

/** Sets every task state in an answer to `state`. */
function setStates(body: unknown, state: string): unknown {
  for (const o of objects(body)) if (typeof o.state === 'string') o.state = state;
  return body;
}

/** A fault that edits the teach block of the kit's echo question (the one §8's checks read). */
function blockFault(name: string, edit: (block: Wire) => void, id: string): NamedFault {
  return {
    name,
    fault: {
      response(body, x) {
        if (x.activated && sendHolds(x, '-echo-')) for (const b of blocks(body)) edit(b);
        return body;
      },
    },
    fails: [{ id, section: '§8' }],
  };
}

/** §7: the teach block goes to every client, activated or not (and the echo is left off, to hide it). */
const leakedTeachBlock: NamedFault = {
  name: 'a teach block leaked to unactivated reads',
  fault: {
    requestHeaders(headers, x) {
      if (x.activated) return;
      headers.set('a2a-extensions', EXTENSION_URI);
      headers.set('x-a2a-extensions', EXTENSION_URI); // A2A 0.3's spelling
    },
    responseHeaders(headers, x) {
      if (!x.activated) dropEcho(headers);
    },
  },
  fails: [
    { id: 'activation.no-block.get.', section: '§7' },
    { id: 'activation.no-block.list.', section: '§7' },
    { id: 'activation.no-block.send.', section: '§7' },
    { id: 'activation.no-block.stream.', section: '§7' },
    { id: 'activation.no-block.resubscribe.', section: '§7' },
  ],
};

/** §7: the agent activates the profile but never says so in A2A-Extensions. */
const noEcho: NamedFault = {
  name: 'activation not echoed',
  fault: { responseHeaders: dropEcho },
  fails: [
    { id: 'activation.echo.send.', section: '§7' },
    { id: 'activation.echo.stream.', section: '§7' },
    { id: 'teach-method.result', section: '§12.2' },
  ],
};

/** §8: an answer to a question asked without its block (so, unactivated) ends otherwise than one asked with it. */
const blockChangesTheAnswer: NamedFault = {
  name: 'the answer handled otherwise without the teach block',
  fault: {
    response: (body: unknown, x: Exchange) =>
      !x.activated && typeof sentMessage(x)?.taskId === 'string'
        ? setStates(body, 'TASK_STATE_FAILED')
        : body,
  },
  fails: [{ id: 'teach.same-proceeding', section: '§8' }],
};

/**
 * §8, the other way round (issue 50): an answer to a question asked with its block ends otherwise.
 * The adapter's own answer fails at the fit check then; that is the agent's §8 failure, not a misfit.
 */
const blockShownChangesTheAnswer: NamedFault = {
  name: 'the answer handled otherwise with the teach block shown',
  fault: {
    response: (body: unknown, x: Exchange) =>
      x.activated && typeof sentMessage(x)?.taskId === 'string' ? setStates(body, 'TASK_STATE_FAILED') : body,
  },
  fails: [{ id: 'teach.same-proceeding', section: '§8' }],
};

/** §11: show-back answers that the lesson was saved, instead of what the agent now makes of the input. */
const savedShowBack: NamedFault = {
  name: 'show-back answering "saved"',
  fault: {
    response(body, x) {
      if (!sendHolds(x, SHOW_BACK)) return body;
      for (const o of objects(body)) {
        if (Array.isArray(o.artifacts))
          o.artifacts = [{ artifactId: 'saved', parts: [{ text: 'Saved.' }, { data: { saved: true } }] }];
      }
      return body;
    },
  },
  fails: [
    { id: 'showback.settled-or-unsettled.before', section: '§11' },
    { id: 'showback.settled-or-unsettled.after', section: '§11' },
    { id: 'showback.current-version', section: '§11' },
  ],
};

/** §11: show-back asks, leaving its task in input-required. */
const askingShowBack: NamedFault = {
  name: 'show-back asking a question',
  fault: {
    response: (body, x) => (sendHolds(x, SHOW_BACK) ? setStates(body, 'TASK_STATE_INPUT_REQUIRED') : body),
  },
  fails: [{ id: 'showback.no-question.', section: '§11' }],
};

/** §11: show-back pinned to the version it first ran on: every reading of a task is its first. */
const pinnedShowBack = (): NamedFault => {
  const first = new Map<string, string>();
  return {
    name: 'show-back pinned to an earlier version',
    fault: {
      response(body: Wire, x) {
        if (!sendHolds(x, SHOW_BACK)) return body as unknown;
        const of = JSON.stringify(sentMessage(x)?.parts);
        const seen = first.get(of);
        if (seen === undefined) {
          first.set(of, JSON.stringify(body));
          return body as unknown;
        }
        // The first answer again, under this call's JSON-RPC id.
        const again: Wire = JSON.parse(seen);
        if (body?.id !== undefined) again.id = body.id;
        return again as unknown;
      },
    },
    fails: [{ id: 'showback.current-version', section: '§11' }],
  };
};

export function questionFaults(): readonly NamedFault[] {
  return [
    leakedTeachBlock,
    noEcho,
    blockFault(
      'a teach block without entries',
      (b) => {
        delete b.entries;
      },
      'teach.schema',
    ),
    blockFault(
      'a teach block naming an undeclared collection',
      (b) => {
        b.collection = 'somewhere-else';
      },
      'teach.collection',
    ),
    blockFault(
      'a suggestion with a key that is not a lesson field',
      (b) => {
        b.suggested = { ...(b.suggested as object), mailbox: 'all' };
      },
      'teach.suggested-keys',
    ),
    blockChangesTheAnswer,
    blockShownChangesTheAnswer,
    savedShowBack,
    askingShowBack,
    pinnedShowBack(),
  ];
}

/**
 * Not a fault: the unactivated sends of the kit's `-plain-` inputs come back answered, not asking.
 * A read that asked nothing proves nothing, so those checks are SKIP, never PASS (issue 42).
 */
export const nothingAsked = {
  response: (body: unknown, x: Exchange): unknown =>
    !x.activated && sendHolds(x, '-plain-') ? setStates(body, 'TASK_STATE_COMPLETED') : body,
};
