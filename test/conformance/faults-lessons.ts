/**
 * §9, §10 and §12.2 faults: lessons and what comes of them, as a build with one fault would answer.
 * Lessons reach this server by its authority API (the triage adapter's) and by the Teach method.
 */
import type { Wire } from '../support/calls.ts';
import type { Exchange } from './fault-proxy.ts';
import { EXTENSION_URI } from '../../src/domain/extension.ts';
import { lessonOf, lessonResult, objects, rpcMethod, sentMessage } from './fault-wire.ts';
import type { NamedFault } from './faults.ts';

/** A fault that edits each LessonResult a lesson is answered with. */
function resultFault(name: string, edit: (result: Wire) => void, fails: NamedFault['fails']): NamedFault {
  return {
    name,
    fault: {
      response(body: Wire, x: Exchange) {
        const result = lessonResult(body, x);
        if (result !== undefined) edit(result);
        return body as unknown;
      },
    },
    fails,
  };
}

/** The kit's lesson for a collection the card does not declare (it names them `undeclared-…`). */
const undeclared = (x: Exchange): boolean => String(lessonOf(x)?.collection).startsWith('undeclared-');

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

/** §10.3: the version a lesson replaced is changed in place: every answer names it, never a new one. */
const changedInPlace = (): NamedFault => {
  const alias = new Map<string, string>();
  return {
    name: 'the active version changed in place',
    fault: {
      response(body: Wire, x: Exchange) {
        const result = lessonResult(body, x);
        if (result?.learned === true && typeof result.previousVersionId === 'string')
          alias.set(
            result.versionId as string,
            alias.get(result.previousVersionId) ?? result.previousVersionId,
          );
        for (const o of objects(body))
          if (typeof o.versionId === 'string' && alias.has(o.versionId)) o.versionId = alias.get(o.versionId);
        return body as unknown;
      },
    },
    fails: [
      { id: 'absorb.new-version', section: '§10.3' },
      { id: 'history.undo', section: '§10.3' },
    ],
  };
};

/**
 * §10.4: an agent that names its versions by id on every task and answers every lesson with
 * definitionVersion 1 and a fresh versionId (issue 50). Its history still numbers them (this
 * server's real numbers): that is where the kit reads the version before the first lesson.
 */
const neverRising: NamedFault = {
  name: 'a definitionVersion that never rises, versions named by id',
  fault: {
    response(body: Wire, x: Exchange) {
      const result = lessonResult(body, x);
      if (result !== undefined) result.definitionVersion = 1;
      else if (!x.path.includes('/authority/v1/history'))
        for (const o of objects(body)) if (typeof o.versionId === 'string') delete o.definitionVersion;
      return body as unknown;
    },
  },
  fails: [
    { id: 'absorb.result', section: '§10.4' },
    { id: 'absorb.monotonic', section: '§10.4' },
  ],
};

/** The task a show-back (the triage adapter's `recheck`) re-reads, or undefined for any other call. */
function rechecked(x: Exchange): string | undefined {
  const id: unknown = sentMessage(x)?.parts?.[0]?.data?.recheck?.taskId;
  return typeof id === 'string' ? id : undefined;
}

/**
 * §11 "MUST NOT be pinned to an earlier version": show-back reads on the version of the last task
 * that parked, not on the active one (issue 50). The proxy answers a show-back with the reading it
 * saw of the same input on that version, when it saw one.
 */
const showBackOnLastParked = (): NamedFault => {
  let lastParked: string | undefined;
  const readings = new Map<string, unknown>();
  return {
    name: 'show-back on the version of the last parked task, not the active one',
    fault: {
      response(body: Wire, x: Exchange) {
        const input = rechecked(x);
        if (input === undefined) {
          for (const o of objects(body))
            if ((o.status as Wire)?.state === 'TASK_STATE_INPUT_REQUIRED') {
              const pin: Wire = (o.metadata as Wire)?.[EXTENSION_URI]?.pin;
              if (typeof pin?.versionId === 'string') lastParked = pin.versionId;
            }
          return body as unknown;
        }
        const shownOn = [...objects(body)].find((o) => typeof o.versionId === 'string')?.versionId;
        if (typeof shownOn === 'string') readings.set(`${input} ${shownOn}`, structuredClone(body));
        const onParked = readings.get(`${input} ${lastParked}`) as Wire;
        if (onParked === undefined) return body as unknown;
        return { ...onParked, ...(body?.jsonrpc === undefined ? {} : { id: body.id }) } as unknown;
      },
    },
    fails: [{ id: 'showback.current-version', section: '§11' }],
  };
};

export function lessonFaults(taughtBy: string): readonly NamedFault[] {
  return [
    neverRising,
    showBackOnLastParked(),
    {
      name: 'a lesson for an undeclared collection taken as one for a declared collection',
      fault: {
        request: (body: Wire, x) =>
          undeclared(x) ? { ...(body as object), collection: 'customers' } : undefined,
      },
      fails: [{ id: 'lesson.undeclared-collection', section: '§9' }],
    },
    {
      name: 'a lesson without taughtBy attributed to the caller',
      fault: {
        request: (body: Wire, x) =>
          lessonOf(x) !== undefined && body?.taughtBy === undefined
            ? { ...(body as object), taughtBy }
            : undefined,
      },
      fails: [{ id: 'lesson.needs-taught-by', section: '§9' }],
    },
    {
      name: "the learnable's refusal replaced by the authority's own words",
      fault: {
        response(body: Wire, x) {
          if (lessonOf(x) === undefined || undeclared(x) || body?.error === undefined) return body as unknown;
          body.error.message = 'invalid value';
          return body as unknown;
        },
      },
      fails: [{ id: 'absorb.refusal', section: '§10.1' }],
    },
    resultFault(
      'the same lesson again learned anew',
      (r) => {
        if (r.learned === false)
          Object.assign(r, { learned: true, definitionVersion: r.definitionVersion + 1 });
      },
      [{ id: 'absorb.idempotent', section: '§10.2' }],
    ),
    ignoredPin,
    changedInPlace(),
    resultFault(
      'a definitionVersion that does not rise',
      (r) => {
        r.definitionVersion -= 1;
      },
      [{ id: 'absorb.result', section: '§10.4' }],
    ),
    resultFault(
      'nothing said of what was learned',
      (r) => {
        if (r.learned === true) r.describes = '';
      },
      [{ id: 'absorb.result', section: '§10.4' }],
    ),
    {
      name: 'the history attributing a lesson to someone else',
      fault: {
        response(body: Wire, x) {
          if (!x.path.includes('/authority/v1/history')) return body as unknown;
          for (const o of objects(body))
            if (typeof o.taughtBy === 'string') o.taughtBy = 'someone@else.example';
          return body as unknown;
        },
      },
      fails: [{ id: 'history.attributed', section: '§10.3' }],
    },
    {
      name: 'a rollback that undoes nothing',
      fault: {
        answer: (x) =>
          x.method === 'POST' && x.path.endsWith('/authority/v1/rollback')
            ? { status: 200, body: {} }
            : undefined,
      },
      fails: [{ id: 'history.undo', section: '§10.3' }],
    },
    {
      name: 'the Teach method answering something other than a LessonResult',
      fault: {
        response(body: Wire, x) {
          if (rpcMethod(x) !== 'rsaxb.learnables.Teach' || body?.result === undefined) return body as unknown;
          body.result = { ok: true };
          return body as unknown;
        },
      },
      fails: [{ id: 'teach-method.result', section: '§12.2' }],
    },
  ];
}
