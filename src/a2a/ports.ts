/**
 * What the A2A adapter needs from the rest of the server, as narrow structural interfaces. server.ts
 * satisfies them with the triage service (src/domain/triage), the mail parser (src/ingest/mail) and
 * the authority (embedded, or remote over HTTP); this folder imports none of those adapters.
 */
import type { Lesson, LessonResult, Principal } from '../domain/authority/index.ts';
import type { MailMessage } from '../domain/mail/index.ts';
import type { TenantId } from '../domain/tenant.ts';
import type { PersonDecision } from '../domain/learnables/index.ts';
import type { MessageReading } from '../domain/triage/index.ts';

// The triage service's own shapes: one definition of a pin, a question and an outcome.
export type { TaskPin, TriageOutcome, TriageQuestion } from '../domain/triage/index.ts';
import type { TaskPin, TriageOutcome } from '../domain/triage/index.ts';

/** Reading mail under a definition version (the triage service). */
export interface TriagePort {
  /** Read `message` under `pin`, or under the active version (then pin to it) when absent. */
  triage(
    tenant: TenantId,
    message: MailMessage,
    pin?: TaskPin,
    options?: { readonly taskId?: string; readonly contextId?: string },
  ): Promise<TriageOutcome>;
  /**
   * §11 show-back: read a previously seen message under the version active now; never pinned,
   * never asks. `null` when no such message was seen for this tenant.
   */
  recheck(tenant: TenantId, key: RecheckKey): Promise<MessageReading | null>;
  /**
   * The reading as decided: each collection a person answered (by collection) marked so, the rest
   * marked as decided by rules or by nobody (each learnable's reader phrases it).
   */
  decided(reading: MessageReading, answers: Readonly<Record<string, PersonDecision>>): MessageReading;
  /** A person's answer to a question, so later suggestions never claim the message for another entry (§13.1). */
  recordAnswer?(tenant: TenantId, message: MailMessage, collection: string, entry: string): Promise<void>;
  /**
   * §14, §10.3: the outcome a parked task read on its pinned version, and its message as kept,
   * for answering it once its mail was discarded; null when none was kept.
   */
  keptOutcome?(
    tenant: TenantId,
    taskId: string,
  ): Promise<{ readonly outcome: TriageOutcome; readonly message: MailMessage } | null>;
}

export type RecheckKey =
  { readonly messageId: string } | { readonly taskId: string } | { readonly message: MailMessage };

/** Turning what a client sent into the normalised message (mailparser lives in src/ingest). */
export interface MailReader {
  /** Raw RFC 822 bytes; throws DomainError MESSAGE_UNREADABLE / MESSAGE_TOO_LARGE. */
  parse(raw: Buffer): Promise<MailMessage>;
  /** A data part with message fields; throws DomainError INPUT_NOT_ACCEPTED naming what is wrong. */
  fromFields(fields: Readonly<Record<string, unknown>>): MailMessage | Promise<MailMessage>;
}

/** §12.2: only an agent that owns its definitions can absorb a lesson itself. */
export interface LessonSink {
  absorb(tenant: TenantId, principal: Principal, lesson: Lesson): Promise<LessonResult>;
}
