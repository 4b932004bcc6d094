/**
 * The faults the kit must catch (issue 30), each as the wire of a build that has it, for
 * fault-proxy.ts. A fault is named by the checks it must fail, and only those.
 */
import { EXTENSION_URI } from '../../src/domain/extension.ts';
import type { Wire } from '../support/calls.ts';
import type { Exchange, Fault } from './fault-proxy.ts';

export interface NamedFault {
  readonly name: string;
  readonly fault: Fault;
  /** Check ids (prefixes) that must fail, and the section each names. */
  readonly fails: readonly { readonly id: string; readonly section: string }[];
}

/** A SendMessage (JSON-RPC or REST) and the message it carries. */
function sentMessage(x: Exchange): Wire {
  if (x.request?.method === 'SendMessage') return x.request.params?.message;
  if (x.path.endsWith('/message:send')) return x.request?.message;
  return undefined;
}

/** Every object in `value`, depth first. */
function* objects(value: unknown): Generator<Record<string, unknown>> {
  if (value === null || typeof value !== 'object') return;
  if (!Array.isArray(value)) yield value as Record<string, unknown>;
  for (const inner of Object.values(value)) yield* objects(inner);
}

/** Takes the §7 echo out of a response, in both spellings (A2A 0.3's is X-A2A-Extensions). */
function dropEcho(headers: Headers): void {
  headers.delete('a2a-extensions');
  headers.delete('x-a2a-extensions');
}

/** §7, §8: the teach block goes to every client, activated or not (and the echo is left off, to hide it). */
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
  ],
};

/** §10.3: a task answered after a lesson finishes on the version active then, not the one it was pinned to. */
const ignoredPin: NamedFault = {
  name: 'the pin ignored',
  fault: {
    async response(body, x, upstream) {
      if (typeof sentMessage(x)?.taskId !== 'string') return body;
      const head = await fetch(new URL('/authority/v1/head', upstream), {
        headers: { authorization: x.authorization ?? '' },
      }).then((r) => r.json() as Promise<{ versionId: string }>);
      for (const o of objects(body)) if (typeof o.versionId === 'string') o.versionId = head.versionId;
      return body;
    },
  },
  fails: [{ id: 'pin.finishes-on-pinned', section: '§10.3' }],
};

/** §11: show-back answers that the lesson was saved, instead of what the agent now makes of the input. */
const savedShowBack: NamedFault = {
  name: 'show-back answering "saved"',
  fault: {
    response(body, x) {
      if (!JSON.stringify(sentMessage(x) ?? {}).includes('"recheck"')) return body;
      for (const o of objects(body)) {
        if (Array.isArray(o.artifacts))
          o.artifacts = [{ artifactId: 'saved', parts: [{ text: 'Saved.' }, { data: { saved: true } }] }];
      }
      return body;
    },
  },
  fails: [
    { id: 'showback.settled-or-unsettled.after', section: '§11' },
    { id: 'showback.current-version', section: '§11' },
  ],
};

/** §7: the agent activates the profile but never says so in A2A-Extensions. */
const noEcho: NamedFault = {
  name: 'activation not echoed',
  fault: {
    responseHeaders: dropEcho,
  },
  fails: [
    { id: 'activation.echo.send.', section: '§7' },
    { id: 'activation.echo.stream.', section: '§7' },
    { id: 'teach-method.result', section: '§12.2' },
  ],
};

/** §13.2: a call without credentials is served as if it carried `token` (activation taken for authorization). */
const credentialsAssumed = (token: string): NamedFault => ({
  name: 'calls without credentials served',
  fault: {
    requestHeaders(headers) {
      if (!headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
    },
  },
  fails: [
    { id: 'auth.lesson-needs-credentials', section: '§13.2' },
    { id: 'auth.send-needs-credentials', section: '§13.2' },
  ],
});

/** Every fault, for a server whose first tenant's token is `token`. */
export function wireFaults(token: string): readonly NamedFault[] {
  return [leakedTeachBlock, ignoredPin, savedShowBack, noEcho, credentialsAssumed(token)];
}
