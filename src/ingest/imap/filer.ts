/**
 * Where a triaged message goes in its own mailbox, as the people reading it see it (filing.ts
 * names the place from the template and what the task decided):
 * - `folders` (the default): moved into the folder, a question into the questions folder;
 * - `keywords`: left where it is, with an IMAP keyword (`$Customers/Acme_Freight`) for servers
 *   where folders are unwanted; a question carries `$Questions`;
 * - `labels`: left where it is, with a Gmail label (X-GM-LABELS) when the server advertises the
 *   Gmail extension (X-GM-EXT-1); on a server without it, keywords, and the log says so.
 * Without a template every message goes to the processed folder, as before filing.
 *
 * A question is filed again once it is answered (over A2A, the console, anywhere): each sweep
 * reads what waits under the question's folder, keyword or label, finds its task again through
 * the dedupe ledger (the same message is a duplicate of its first task), and files it where its
 * task now says.
 */
import type { ImapFlow } from 'imapflow';
import type { TenantId } from '../../domain/tenant.ts';
import type { Intake } from '../intake.ts';
import type { IngestLog, MailSourceRef, TaskFiling } from '../ports.ts';
import { folderFor, keywordFor, type FilingConfig } from './filing.ts';

export interface FilerOptions {
  readonly tenant: TenantId;
  readonly source: MailSourceRef;
  /** The watched folder, where a marked message stays. */
  readonly folder: string;
  readonly processedFolder: string;
  readonly filing?: FilingConfig;
  readonly taskFiling?: (
    tenant: TenantId,
    taskId: string,
    source: MailSourceRef,
  ) => Promise<TaskFiling | null>;
  readonly intake: Intake;
  readonly log: IngestLog;
  readonly where: Record<string, unknown>;
}

export interface Filer {
  /** Files a message just triaged (already flagged \Seen). A failure to move throws: the place is not advanced. */
  file(c: ImapFlow, uid: string, taskId: string): Promise<void>;
  /** Files again what waits for an answer whose task has been decided since; `keepGoing` is asked before each. */
  refileAnswered(c: ImapFlow, keepGoing: () => boolean): Promise<void>;
}

type Marks = 'keywords' | 'labels';

export function createFiler(o: FilerOptions): Filer {
  const { log, where } = o;
  let warnedNoLabels = false;

  async function placeOf(c: ImapFlow, taskId: string): Promise<string | null> {
    if (o.filing === undefined || o.taskFiling === undefined) return null;
    const filing = await o.taskFiling(o.tenant, taskId, o.source);
    if (filing === null) return null;
    return folderFor(o.filing, filing, o.filing.mode === 'folders' ? delimiterOf(c) : '/');
  }

  /** The kind of mark this server takes, or null for folders. */
  function marks(c: ImapFlow): Marks | null {
    const mode = o.filing?.mode ?? 'folders';
    if (mode === 'folders') return null;
    if (mode === 'labels' && !c.capabilities.has('X-GM-EXT-1')) {
      if (!warnedNoLabels)
        log.warn(where, 'the server has no Gmail labels (X-GM-EXT-1); filing by IMAP keywords instead');
      warnedNoLabels = true;
      return 'keywords';
    }
    return mode;
  }

  async function mark(c: ImapFlow, uid: string, place: string, kind: Marks, remove?: string): Promise<void> {
    const as = (p: string): string => (kind === 'labels' ? p : keywordFor(p));
    const options = { uid: true, ...(kind === 'labels' ? { useLabels: true } : {}) };
    if (remove !== undefined) await c.messageFlagsRemove(uid, [as(remove)], options);
    await c.messageFlagsAdd(uid, [as(place)], options);
  }

  /** Nothing is lost when a folder cannot be made: the message stays where it is, and the log says why. */
  async function moveOrStay(c: ImapFlow, uid: string, target: string, taskId: string): Promise<void> {
    if (target !== o.processedFolder) {
      try {
        await ensureFolder(c, target);
      } catch (e) {
        if (!c.usable) throw e; // the connection broke: the drain stops, the message is read again
        log.warn(
          { ...where, uid, taskId, target, error: e instanceof Error ? e.message : String(e) },
          'could not make the folder; the message stays where it is',
        );
        return;
      }
    }
    await c.messageMove(uid, target, { uid: true });
  }

  async function refileMarked(c: ImapFlow, kind: Marks, keepGoing: () => boolean): Promise<void> {
    const questions = o.filing!.questionsFolder;
    if (c.mailbox === false || c.mailbox.path !== o.folder) await c.mailboxOpen(o.folder);
    const query = kind === 'labels' ? { gmraw: `label:"${questions}"` } : { keyword: keywordFor(questions) };
    const uids = (await c.search(query, { uid: true })) || [];
    for (const uid of uids) {
      if (!keepGoing()) return;
      const m = await c.fetchOne(String(uid), { uid: true, source: true }, { uid: true });
      if (m === false || m.source === undefined) continue;
      const outcome = await o.intake.accept(o.tenant, m.source, o.source);
      if (outcome.kind !== 'duplicate' && outcome.kind !== 'submitted') continue;
      const place = await placeOf(c, outcome.taskId);
      if (place !== null && place !== questions) await mark(c, String(uid), place, kind, questions);
    }
  }

  async function refileFolder(c: ImapFlow, keepGoing: () => boolean): Promise<void> {
    const questions = o.filing!.questionsFolder;
    const status = await c.status(questions, { messages: true }).catch(() => null);
    if (status === null || status === false || (status.messages ?? 0) === 0) return;
    await c.mailboxOpen(questions);
    try {
      const waiting: { uid: number; source: Buffer }[] = [];
      for await (const m of c.fetch('1:*', { uid: true, source: true }, {}))
        if (m.source !== undefined) waiting.push({ uid: m.uid, source: m.source });
      for (const m of waiting) {
        if (!keepGoing()) return;
        const outcome = await o.intake.accept(o.tenant, m.source, o.source);
        if (outcome.kind !== 'duplicate' && outcome.kind !== 'submitted') continue;
        const target = await placeOf(c, outcome.taskId);
        if (target !== null && target !== questions)
          await moveOrStay(c, String(m.uid), target, outcome.taskId);
      }
    } finally {
      await c.mailboxOpen(o.folder);
    }
  }

  return {
    async file(c, uid, taskId) {
      const place = await placeOf(c, taskId);
      const kind = marks(c);
      if (kind === null) await moveOrStay(c, uid, place ?? o.processedFolder, taskId);
      else if (place !== null) await mark(c, uid, place, kind);
    },
    async refileAnswered(c, keepGoing) {
      if (o.filing === undefined || o.taskFiling === undefined || !keepGoing()) return;
      const kind = marks(c);
      if (kind === null) await refileFolder(c, keepGoing);
      else await refileMarked(c, kind, keepGoing);
    },
  };
}

/** The server's hierarchy separator (from LIST), "/" until known. */
function delimiterOf(c: ImapFlow): string {
  const d = c.mailbox === false ? undefined : c.mailbox.delimiter;
  return typeof d === 'string' && d !== '' ? d : '/';
}

export async function ensureFolder(c: ImapFlow, path: string): Promise<void> {
  await c.mailboxCreate(path); // ALREADYEXISTS answers { created: false }
}
