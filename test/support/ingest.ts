/** Shared helpers for the ingest tests: recording submitter and log, message builder, waitFor. */
import type { TenantId } from '../../src/domain/tenant.ts';
import type { IngestLog, MailSourceRef, MailSubmitter, SubmitResult } from '../../src/ingest/ports.ts';
import { parseMail } from '../../src/ingest/mail/parse.ts';

export interface Submission {
  readonly tenant: TenantId;
  readonly messageId: string | null;
  readonly subject: string;
  readonly source: MailSourceRef;
  readonly raw: Buffer;
  readonly at: number;
}

/**
 * A submitter that records what it was given (parsed with the real parseMail) and answers a task id.
 * `hook` runs before answering and may throw (a fault) or do something to the world (kill the server).
 */
export function recordingSubmitter(
  hook?: (s: Submission, index: number) => void | Promise<void>,
): MailSubmitter & { readonly submissions: Submission[] } {
  const submissions: Submission[] = [];
  return {
    submissions,
    async submit(tenant, raw, source): Promise<SubmitResult> {
      const m = await parseMail(raw);
      const s: Submission = {
        tenant,
        messageId: m.messageId,
        subject: m.subject,
        source,
        raw,
        at: Date.now(),
      };
      if (hook !== undefined) await hook(s, submissions.length);
      submissions.push(s);
      return { taskId: `task-${submissions.length}`, state: 'input-required' };
    },
  };
}

export interface LogEntry {
  readonly level: 'info' | 'warn' | 'error';
  readonly fields: Record<string, unknown>;
  readonly message: string;
}

export function recordingLog(): IngestLog & { readonly entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const at =
    (level: LogEntry['level']) =>
    (fields: Record<string, unknown>, message: string): void => {
      entries.push({ level, fields, message });
    };
  return { entries, info: at('info'), warn: at('warn'), error: at('error') };
}

/** A small RFC 822 message with a Message-ID; `bodyBytes` pads the body. */
export function mail(
  id: string,
  options: { subject?: string; bodyBytes?: number; headers?: string } = {},
): Buffer {
  const body =
    options.bodyBytes === undefined
      ? `Pre-alert ${id}.\r\n`
      : `${'x'.repeat(76)}\r\n`.repeat(Math.ceil(options.bodyBytes / 78));
  return Buffer.from(
    `From: Shipper <ops@shipper.example>\r\nTo: agent@example.test\r\nSubject: ${options.subject ?? `Pre-alert ${id}`}\r\n` +
      `Message-ID: <${id}@shipper.example>\r\nDate: Mon, 30 Nov 2026 10:00:00 +0000\r\n${options.headers ?? ''}` +
      `MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${body}`,
  );
}

/** Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
