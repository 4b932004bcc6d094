/**
 * What an agent's author writes so the kit can check it: how to give the agent an input it cannot
 * decide, and what to teach for it. Everything else (collections, lesson fields, skills,
 * interfaces) the kit reads from the agent card. Messages and tasks are A2A v1.0 wire JSON, the
 * shape the agent sends and receives, so an adapter needs no SDK types.
 */

/** A2A wire JSON, read loosely: the kit checks its shape where the spec gives one. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- wire JSON
export type Wire = any;

/** A user message without `messageId` and `role` (the kit adds both): `{ parts: [...] }`, maybe `metadata`. */
export interface MessageDraft {
  readonly parts: readonly Wire[];
  readonly metadata?: Record<string, unknown>;
}

/** A Lesson (§9) without `taughtBy`: the kit writes as the person given by `--taught-by`. */
export interface LessonDraft {
  readonly collection: string;
  readonly entry: string;
  readonly value: Record<string, unknown>;
  readonly reason?: string;
}

export interface Lesson extends LessonDraft {
  readonly taughtBy: string;
}

/** The question the agent asked about the adapter's input (activated, so with its teach block if any). */
export interface Question {
  /** The id the kit passed to `undecidable`. */
  readonly id: string;
  /** The task, parked in TASK_STATE_INPUT_REQUIRED, as wire JSON. */
  readonly task: Wire;
  /** The teach block of its question (§8), when the agent attached one. */
  readonly teach: Wire; // undefined when the question carries none
}

/** What an HTTP call answered: the status, the response headers and the parsed body (or the text). */
export interface HttpAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Wire;
}

/** What the kit lends an adapter: where the agent is, its card, and calls with the kit's token. */
export interface AdapterContext {
  /** The agent's base URL as the kit was given it. */
  readonly baseUrl: string;
  /** The agent card, wire JSON. */
  readonly card: Wire;
  /** The person the kit teaches as (`--taught-by`). */
  readonly taughtBy: string;
  /**
   * An HTTP call with a JSON body. `token: null` sends no Authorization header (the kit's checks of
   * §13.2 use it); the default is the kit's token. `activate` adds the A2A-Extensions header.
   */
  call(
    method: string,
    url: string,
    body?: unknown,
    options?: { readonly token?: string | null; readonly activate?: boolean },
  ): Promise<HttpAnswer>;
}

/** What a lesson came to: the LessonResult (§10.4), or a refusal in the agent's or authority's words. */
export type TeachOutcome =
  | { readonly ok: true; readonly result: Wire }
  | { readonly ok: false; readonly status: number; readonly reason: string };

/**
 * One activation in the authority's history (§10.3). The kit finds the lesson's entry by
 * `versionId` where both it and the LessonResult give one, else by `definitionVersion`.
 */
export interface HistoryEntry {
  readonly versionId?: string;
  readonly definitionVersion?: number;
  readonly taughtBy?: string;
  readonly reason?: string;
}

export interface ConformanceAdapter {
  /** Named in the report. */
  readonly name: string;
  /**
   * Whether this adapter is written for the agent whose card this is. The kit asks it only of its
   * default adapter (`--adapter` not given), and stops with an adapter error when it says no, or
   * has no answer, rather than blame an agent for an adapter written for another.
   */
  recognises?(card: Wire): boolean;
  /**
   * An input this agent cannot decide, so it parks the task in input-required. `id` is new on
   * every call and unique to this run: make the input fresh with it (a new sender, a new id).
   */
  undecidable(id: string): MessageDraft;
  /** The answer a person gives to that question, on the same task. It must not depend on the teach block. */
  answer(question: Question): MessageDraft;
  /** The lesson that teaches the agent to decide that input itself. */
  lesson(question: Question): LessonDraft;
  /**
   * Lessons the kit teaches before any check, so the answers and lessons below name entries that
   * exist (teaching is idempotent, §10.2, so a second run changes nothing). Absent: none.
   */
  prepare?(): readonly LessonDraft[];
  /** A lesson whose value the learnable refuses (§10.1). Absent: that check is skipped. */
  refusedLesson?(question: Question): LessonDraft;
  /**
   * How a lesson reaches the authority when it is not the agent's declared `teachMethod` (§12.1):
   * `token: null` must send no credentials. Absent: the kit calls the card's `teachMethod` (§12.2).
   */
  teach?(lesson: Lesson, context: AdapterContext, token?: string | null): Promise<TeachOutcome>;
  /**
   * The request that shows back what the agent now makes of a task's input (§11). Absent: §11 is
   * skipped (unchecked). `null`: the agent has no show-back (a SHOULD), so §11's MUSTs do not apply.
   */
  showBack?: ((task: Wire) => MessageDraft) | null;
  /**
   * The definition version a task was decided on, or is pinned to while it waits (§10.3): its
   * `versionId` as a string, or `{ versionId?, definitionVersion? }` (an agent that gives no
   * versionId is compared by definitionVersion).
   */
  versionOf?(task: Wire): string | { versionId?: string; definitionVersion?: number } | undefined;
  /** The authority's activation history, newest first or last (§10.3). */
  history?(context: AdapterContext): Promise<readonly HistoryEntry[]>;
  /**
   * Activates an earlier version again, the authority's undo (§10.3): the one the lesson replaced,
   * by its definitionVersion and, where the agent gives one, its versionId.
   */
  rollback?(
    context: AdapterContext,
    to: { versionId?: string | undefined; definitionVersion: number },
  ): Promise<void>;
}
