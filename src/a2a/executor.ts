/**
 * The agent's executor: the two skills, triage_inbound and recheck_message, on the SDK's task
 * lifecycle.
 *
 * triage_inbound pins the task to the definition active at its start (§10.3) and does everything,
 * including after it resumes, on that version. Unsettled -> a statusUpdate to input-required whose
 * message asks in words and carries the teach block (§8), which reaches only a request that
 * activated the extension (§7: the gate in front of every route, teach-block-gate.ts). The answer
 * comes back on the same task and is understood identically with or without activation (§8); the
 * task then completes with the decision marked as made by a person.
 *
 * recheck_message is show-back (§11): a new task each time, read under the version active now,
 * never pinned, never asks, never proposes; it needs activation (§7).
 *
 * Deliberately does not: parse MIME (MailReader), score or suggest (TriagePort), or hold any state
 * a decision not to teach could leave stale (§12.1): everything a parked task needs is in the task.
 */
import type { Task } from '@a2a-js/sdk';
import { Role, TaskState } from '@a2a-js/sdk';
import type { AgentExecutor, ExecutionEventBus, RequestContext, TaskStore } from '@a2a-js/sdk/server';
import { AgentEvent } from '@a2a-js/sdk/server';
import type { Clock } from '../domain/clock.ts';
import { systemClock } from '../domain/clock.ts';
import { DomainError, isDomainError } from '../domain/errors.ts';
import { storageFault } from '../domain/storage-fault.ts';
import { EXTENSION_URI, namesLearnables } from '../domain/extension.ts';
import { isPlainObject } from '../domain/json.ts';
import type { LearnableDescriptor } from '../domain/learnables/index.ts';
import type { MailMessage } from '../domain/mail/index.ts';
import type { PersonDecision } from '../domain/learnables/index.ts';
import type { MessageReading } from '../domain/triage/index.ts';
import { describeChoices, resolveAnswer, type EntryChoice } from './answers.ts';
import { SKILL_RECHECK, SKILL_TRIAGE } from './agent-card.ts';
import { ACCEPTED_INPUT, classifyInput, type MailInput } from './input.ts';
import type { MailReader, TaskPin, TriageOutcome, TriagePort, TriageQuestion } from './ports.ts';
import { presentReading, readingSummary, withNotes } from './presentation.ts';
import { teachBlockJson } from './teach-block.ts';
import { principalOfContext } from './user.ts';
import { agentMessage, dataPart, textPart, Turn } from './turn.ts';

export interface TriageExecutorDeps {
  readonly triage: TriagePort;
  readonly mail: MailReader;
  /** §6.2 descriptors, for the lesson fields a teach block repeats. */
  readonly descriptors: () => readonly LearnableDescriptor[];
  /** The SDK's task store, to find the message a referenced task read (recheck by task id). */
  readonly taskStore: TaskStore;
  /** Told the id of each new task (one the SDK has just generated), before its first event. */
  readonly newTask?: (taskId: string, context: RequestContext['context']) => void;
  readonly clock?: Clock;
  /** Where faults are reported (the cause is logged, never sent). */
  readonly log?: (message: string, cause: unknown) => void;
}

/** What a triage task keeps under the extension URI in its metadata (always resent whole: the SDK merges shallowly). */
export interface TriageTaskState {
  readonly skill: typeof SKILL_TRIAGE;
  /** §10.3 */
  readonly pin: TaskPin;
  /** The collection the open question is about, or null. */
  readonly asking: string | null;
  readonly answers: Readonly<Record<string, PersonDecision>>;
  /**
   * Issue 40, once completed: each reading's decided entry by its label, under the reader's `shownAs`
   * (a key code chooses): what a mailbox files the message by (ingest/imap/filing.ts).
   */
  readonly filedAs?: Readonly<Record<string, string>>;
}

const FAULT_MESSAGE =
  'Something went wrong on our side and this task could not finish. Send the message again; if it keeps failing, tell the operator.';

export class TriageExecutor implements AgentExecutor {
  private readonly clock: Clock;
  private readonly log: (message: string, cause: unknown) => void;
  /** Context ids of tasks parked in input-required in this process, so cancelTask can publish (SDK trap). */
  private readonly parked = new Map<string, string>();

  constructor(private readonly deps: TriageExecutorDeps) {
    this.clock = deps.clock ?? systemClock;
    this.log = deps.log ?? ((m, c) => console.error(m, c));
  }

  async execute(rc: RequestContext, bus: ExecutionEventBus): Promise<void> {
    // §7: activate before the first publish so REST streaming echoes it (JSON-RPC streaming is
    // activated earlier, in the context builder).
    const activated = namesLearnables(rc.context.requestedExtensions);
    if (activated) rc.context.addActivatedExtension(EXTENSION_URI);
    // No stored task: the request named none, so the SDK has just made this id up.
    if (rc.task === undefined) this.deps.newTask?.(rc.taskId, rc.context);
    const turn = new Turn(rc, bus, this.clock);
    try {
      if (rc.task !== undefined) await this.resume(turn, rc.task);
      else await this.start(turn, activated);
    } catch (thrown) {
      this.parked.delete(rc.taskId);
      // A write the disk refused fails the task in words (STORAGE_FULL, STORAGE_READ_ONLY).
      const e = storageFault(thrown) ?? thrown;
      if (isDomainError(e) && e.code !== 'INTERNAL') {
        turn.finish(TaskState.TASK_STATE_FAILED, e.message, { error: { code: e.code, message: e.message } });
      } else {
        this.log(`task ${rc.taskId} failed`, e);
        turn.finish(TaskState.TASK_STATE_FAILED, FAULT_MESSAGE, {
          error: { code: 'INTERNAL', message: FAULT_MESSAGE },
        });
      }
    }
  }

  cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    // Must publish a terminal event, or CancelTask hangs on a task parked in input-required.
    const contextId = this.parked.get(taskId) ?? '';
    this.parked.delete(taskId);
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: {
          state: TaskState.TASK_STATE_CANCELED,
          message: agentMessage(taskId, contextId, [
            textPart('Cancelled. Nothing was decided for this message.'),
          ]),
          timestamp: this.clock.now(),
        },
        metadata: undefined,
      }),
    );
    return Promise.resolve();
  }

  private async start(turn: Turn, activated: boolean): Promise<void> {
    const input = classifyInput(turn.rc.userMessage.parts);
    if (input.kind === 'recheck') {
      await this.recheck(turn, input, activated);
      return;
    }
    if (input.kind === 'rejected' || input.kind === 'discarded') {
      const reason = input.kind === 'rejected' ? input.reason : ACCEPTED_INPUT;
      turn.begin(undefined);
      turn.finish(TaskState.TASK_STATE_REJECTED, reason, {
        error: { code: 'INPUT_NOT_ACCEPTED', message: reason },
      });
      return;
    }
    const tenant = principalOfContext(turn.rc.context).tenant;
    let message: MailMessage;
    try {
      message = await this.readMail(input);
    } catch (e) {
      if (
        isDomainError(e) &&
        (e.code === 'MESSAGE_UNREADABLE' || e.code === 'MESSAGE_TOO_LARGE' || e.code === 'INPUT_NOT_ACCEPTED')
      ) {
        turn.begin(undefined);
        turn.finish(TaskState.TASK_STATE_REJECTED, e.message, {
          error: { code: e.code, message: e.message },
        });
        return;
      }
      throw e;
    }
    // §10.3: resolve the active definition once and pin the task to it.
    const outcome = await this.deps.triage.triage(tenant, message, undefined, {
      taskId: turn.rc.taskId,
      contextId: turn.rc.contextId,
    });
    const state: TriageTaskState = { skill: SKILL_TRIAGE, pin: outcome.pin, asking: null, answers: {} };
    turn.begin({ [EXTENSION_URI]: state });
    this.advance(turn, outcome, state);
  }

  private async resume(turn: Turn, task: Task): Promise<void> {
    const stored = readTaskState(task.metadata);
    turn.resumed(task);
    if (stored === null || stored.asking === null) {
      throw new DomainError(
        'ANSWER_NOT_UNDERSTOOD',
        'This task is not waiting for an answer. Start a new task to triage another message.',
      );
    }
    const first = task.history.find((m) => m.role === Role.ROLE_USER);
    const input = first === undefined ? null : classifyInput(first.parts);
    if (input === null || input.kind === 'rejected' || input.kind === 'recheck') {
      throw new DomainError('INTERNAL', `task ${task.id} has no readable mail in its history`);
    }
    const tenant = principalOfContext(turn.rc.context).tenant;
    // §10.3: everything the task does after it resumes uses the pinned version; once its mail was
    // discarded (§14, RAW_MAIL_RETENTION_DAYS or an erase), the reading it parked with answers it.
    let message: MailMessage;
    let outcome: TriageOutcome;
    if (input.kind === 'discarded') {
      const kept = await this.deps.triage.keptOutcome?.(tenant, task.id);
      if (kept === null || kept === undefined || kept.outcome.pin.versionId !== stored.pin.versionId) {
        throw new DomainError(
          'MESSAGE_TEXT_DISCARDED',
          `The mail of task ${task.id} was discarded and no reading of it was kept, so it cannot be answered. Send the message again in a new task.`,
        );
      }
      ({ message, outcome } = kept);
    } else {
      message = await this.readMail(input);
      // Read before the re-read below replaces it: the reading the task parked with.
      const parked = await this.deps.triage.keptOutcome?.(tenant, task.id);
      outcome = await this.deps.triage.triage(tenant, message, stored.pin, {
        taskId: turn.rc.taskId,
        contextId: turn.rc.contextId,
      });
      outcome = withParkedQuestion(outcome, parked?.outcome ?? null, stored.asking, stored.pin.versionId);
    }
    const question = outcome.questions.find((q) => q.collection === stored.asking);
    if (question === undefined) {
      throw new DomainError(
        'INTERNAL',
        `task ${task.id}: the pinned reading no longer asks about ${stored.asking}`,
      );
    }
    const choices = choicesFor(question);
    const descriptor = this.deps.descriptors().find((d) => d.collection === question.collection);
    const keys = ['entry', question.collection, ...(descriptor === undefined ? [] : [descriptor.entry])];
    const answer = resolveAnswer(turn.rc.userMessage.parts, choices, keys);
    if (!answer.ok) {
      const said =
        answer.said === null
          ? 'I did not find an answer in your message.'
          : `"${answer.said.trim()}" is not one of the ${descriptor?.entry ?? 'entrie'}s I know.`;
      const again = `${said} Answer with one of: ${describeChoices(choices)}, as text or as a data part {"entry": "<name>"}. ${question.text}`;
      this.ask(turn, question, stored, again);
      return;
    }
    const principal = principalOfContext(turn.rc.context);
    await this.deps.triage.recordAnswer?.(tenant, message, question.collection, answer.entry);
    const next: TriageTaskState = {
      ...stored,
      asking: null,
      answers: {
        ...stored.answers,
        [question.collection]: { entry: answer.entry, answeredBy: principal.id, at: this.clock.now() },
      },
    };
    this.advance(turn, outcome, next);
  }

  /** Ask the next unanswered question, or complete. */
  private advance(turn: Turn, outcome: TriageOutcome, state: TriageTaskState): void {
    const open = outcome.questions.find((q) => state.answers[q.collection] === undefined);
    if (open !== undefined) {
      this.ask(turn, open, state, withNotes(open.text, outcome.reading));
      return;
    }
    this.parked.delete(turn.rc.taskId);
    // The pinned reading, each question a person answered marked so.
    const decided = this.deps.triage.decided(outcome.reading, state.answers);
    const report = { ...presentReading(decided), pin: { ...state.pin } };
    turn.artifact(
      'reading',
      'What this message is: customer, kind and manifest fields, and the definition version it was decided under.',
      [textPart(readingSummary(decided)), dataPart(report)],
    );
    const filedAs = Object.fromEntries(
      [...decided.readings.values()].flatMap((r) =>
        r.winnerLabel === undefined ? [] : [[r.shownAs, r.winnerLabel]],
      ),
    );
    turn.finish(TaskState.TASK_STATE_COMPLETED, readingSummary(decided), {
      [EXTENSION_URI]: { ...state, filedAs },
    });
  }

  private ask(turn: Turn, question: TriageQuestion, state: TriageTaskState, text: string): void {
    const asking: TriageTaskState = { ...state, asking: question.collection };
    // §7 is per request: the question is stored with its teach block whoever asked, and the gate in
    // front of every route (teach-block-gate.ts) takes it out for each reader that has not
    // activated, this turn's requester included. §8: nothing else differs.
    const block = teachBlockJson(question.teach, this.deps.descriptors());
    const message = agentMessage(
      turn.rc.taskId,
      turn.rc.contextId,
      [textPart(text)],
      block === null ? undefined : { [EXTENSION_URI]: { teach: block } },
      block === null ? [] : [EXTENSION_URI],
    );
    this.parked.set(turn.rc.taskId, turn.rc.contextId);
    turn.status(TaskState.TASK_STATE_INPUT_REQUIRED, message, { [EXTENSION_URI]: asking });
  }

  private async recheck(
    turn: Turn,
    input: Extract<MailInput, { kind: 'recheck' }>,
    activated: boolean,
  ): Promise<void> {
    turn.begin(undefined);
    if (!activated) {
      // §7: show-back is profile behaviour.
      const reason = `recheck_message is show-back, part of the Learnables extension: send the header "A2A-Extensions: ${EXTENSION_URI}" to use it (§7).`;
      turn.finish(TaskState.TASK_STATE_REJECTED, reason, {
        error: { code: 'EXTENSION_REQUIRED', message: reason },
      });
      return;
    }
    const tenant = principalOfContext(turn.rc.context).tenant;
    let reading: MessageReading | null;
    try {
      if (input.taskId !== undefined) {
        const message = await this.messageOfTask(input.taskId, turn);
        reading =
          message === null
            ? null
            : await this.deps.triage.recheck(
                tenant,
                // §14: a task whose mail was discarded is shown back from the corpus, which says why not.
                message === 'discarded' ? { taskId: input.taskId } : { message },
              );
      } else {
        reading = await this.deps.triage.recheck(tenant, { messageId: stripAngles(input.messageId ?? '') });
      }
    } catch (e) {
      if (!isDomainError(e, 'MESSAGE_TEXT_DISCARDED')) throw e;
      turn.finish(TaskState.TASK_STATE_REJECTED, e.message, { error: { code: e.code, message: e.message } });
      return;
    }
    if (reading === null) {
      const what =
        input.taskId !== undefined ? `task "${input.taskId}"` : `Message-ID "${input.messageId ?? ''}"`;
      const reason = `I have not read a message for ${what} in this tenant. Name a triage_inbound task id or the Message-ID of a message I have read.`;
      turn.finish(TaskState.TASK_STATE_REJECTED, reason, {
        error: { code: 'MESSAGE_NOT_FOUND', message: reason },
      });
      return;
    }
    // §11: read under the version active now; never pinned, never asks, never proposes.
    turn.artifact(
      'show-back',
      'What the agent makes of this message under the definition version active now (§11).',
      [textPart(readingSummary(reading)), dataPart(presentReading(reading))],
      [EXTENSION_URI],
    );
    turn.finish(TaskState.TASK_STATE_COMPLETED, readingSummary(reading), {
      [EXTENSION_URI]: {
        skill: SKILL_RECHECK,
        readUnder: { definitionVersion: reading.definitionVersion, versionId: reading.versionId },
      },
    });
  }

  private async messageOfTask(taskId: string, turn: Turn): Promise<MailMessage | 'discarded' | null> {
    // Scoped by the caller's tenant: another tenant's task is simply not found (§13.2).
    const task = await this.deps.taskStore.load(taskId, turn.rc.context);
    const state = task === undefined ? null : readTaskState(task.metadata);
    const first = task?.history.find((m) => m.role === Role.ROLE_USER);
    if (state === null || first === undefined) return null;
    const input = classifyInput(first.parts);
    if (input.kind === 'discarded') return 'discarded';
    if (input.kind !== 'raw' && input.kind !== 'fields') return null;
    return this.readMail(input);
  }

  private async readMail(input: Extract<MailInput, { kind: 'raw' | 'fields' }>): Promise<MailMessage> {
    return input.kind === 'raw' ? this.deps.mail.parse(input.bytes) : this.deps.mail.fromFields(input.fields);
  }
}

/** What `Turn.finish` left under the extension URI: it travels on the task's final status message. */
export function finishedWith(task: Task): Readonly<Record<string, unknown>> | undefined {
  const ours: unknown = task.status?.message?.metadata?.[EXTENSION_URI];
  return isPlainObject(ours) ? ours : undefined;
}

function readTaskState(metadata: Task['metadata']): TriageTaskState | null {
  const v: unknown = metadata?.[EXTENSION_URI];
  if (!isPlainObject(v) || v.skill !== SKILL_TRIAGE || !isPlainObject(v.pin)) return null;
  const pin = v.pin;
  if (typeof pin.definitionVersion !== 'number' || typeof pin.versionId !== 'string') return null;
  return {
    skill: SKILL_TRIAGE,
    pin: { definitionVersion: pin.definitionVersion, versionId: pin.versionId },
    asking: typeof v.asking === 'string' ? v.asking : null,
    answers: isPlainObject(v.answers) ? (v.answers as unknown as Record<string, PersonDecision>) : {},
  };
}

/**
 * The re-read on the pinned version with the question the person is answering, when the re-read no
 * longer asks it: the version is the same, but a mark's track record is live and may have
 * recovered since the task parked, so the rules may now settle what was asked. The
 * person's answer still counts: it is the answer to the question asked.
 */
export function withParkedQuestion(
  outcome: TriageOutcome,
  parked: TriageOutcome | null,
  asking: string,
  pinnedVersionId: string,
): TriageOutcome {
  if (outcome.questions.some((q) => q.collection === asking)) return outcome;
  const asked =
    parked?.pin.versionId === pinnedVersionId
      ? parked.questions.find((q) => q.collection === asking)
      : undefined;
  return asked === undefined ? outcome : { ...outcome, questions: [asked, ...outcome.questions] };
}

/** The entries an answer may name: every entry of the collection in the pinned version, with labels. */
function choicesFor(question: TriageQuestion): EntryChoice[] {
  return [...question.choices];
}

function stripAngles(id: string): string {
  return id.trim().replace(/^<|>$/g, '');
}
