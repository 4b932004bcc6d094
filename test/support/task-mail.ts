/**
 * Mail as the e2e tests send it over A2A (one RFC 822 file part) and the report a settled task
 * carries (its data artifact), written once for the replica and migration tests.
 */
import type { Task } from '@a2a-js/sdk';

/** A message's parts: a plain-text mail from `from`, as a `message/rfc822` file part. */
export function rfc822Message(
  from: string,
  subject: string,
  messageId: string,
): { parts: Record<string, unknown>[] } {
  const text = [
    `From: Billing <${from}>`,
    'To: imports@warehouse.example',
    `Subject: ${subject}`,
    `Message-ID: <${messageId}>`,
    'Date: Mon, 17 Aug 2026 09:00:00 +0000',
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Please find the shipment details below. Regards, the billing desk.',
    '',
  ].join('\r\n');
  return {
    parts: [{ raw: Buffer.from(text).toString('base64'), mediaType: 'message/rfc822', filename: 'm.eml' }],
  };
}

/** The report in a task's data artifact (the wire JSON, read loosely). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the wire JSON, as tests read it
export function reportOf(task: Task): Record<string, any> {
  const part = task.artifacts[0]?.parts.find((p) => p.content?.$case === 'data');
  if (part?.content?.$case !== 'data') throw new Error(`task ${task.id} has no data artifact`);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
  return part.content.value as Record<string, any>;
}
