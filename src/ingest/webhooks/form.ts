/**
 * Reads a form body (multipart/form-data with busboy, or application/x-www-form-urlencoded) into fields
 * and files, inside a byte budget. Deliberately not here: what any field means.
 */
import type { Request } from 'express';
import busboy from 'busboy';
import { WebhookRefusal } from './refusal.ts';

export interface FormFile {
  readonly field: string;
  readonly filename: string;
  readonly contentType: string;
  readonly content: Buffer;
}

export interface FormBody {
  readonly fields: ReadonlyMap<string, string>;
  readonly files: readonly FormFile[];
}

export async function readForm(req: Request, maxBytes: number): Promise<FormBody> {
  const type = req.headers['content-type'] ?? '';
  if (!/^(multipart\/form-data|application\/x-www-form-urlencoded)\b/i.test(type)) {
    throw new WebhookRefusal(
      'malformed',
      'REQUEST_MALFORMED',
      `Expected a form body (multipart/form-data or application/x-www-form-urlencoded), got Content-Type "${type}".`,
    );
  }
  return new Promise<FormBody>((resolve, reject) => {
    const fields = new Map<string, string>();
    const files: FormFile[] = [];
    let total = 0;
    let failed = false;
    const fail = (e: WebhookRefusal): void => {
      if (failed) return;
      failed = true;
      req.unpipe();
      req.resume();
      reject(e);
    };
    const tooLarge = (): WebhookRefusal =>
      new WebhookRefusal(
        'too-large',
        'REQUEST_TOO_LARGE',
        `The form body is over ${maxBytes} bytes, the most this agent reads (raise MAX_MESSAGE_BYTES to accept larger mail).`,
      );
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        limits: { fieldSize: maxBytes, fileSize: maxBytes, files: 200, fields: 1_000 },
      });
    } catch (e) {
      reject(
        new WebhookRefusal(
          'malformed',
          'REQUEST_MALFORMED',
          `The form body cannot be read: ${(e as Error).message}.`,
        ),
      );
      return;
    }
    bb.on('field', (name, value, info) => {
      total += Buffer.byteLength(value);
      if (info.valueTruncated || total > maxBytes) return fail(tooLarge());
      fields.set(name, value);
    });
    bb.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => {
        total += c.length;
        if (total > maxBytes) {
          stream.resume();
          fail(tooLarge());
          return;
        }
        chunks.push(c);
      });
      stream.on('limit', () => fail(tooLarge()));
      stream.on('close', () => {
        files.push({
          field,
          filename: info.filename ?? field,
          contentType: info.mimeType || 'application/octet-stream',
          content: Buffer.concat(chunks),
        });
      });
    });
    bb.on('filesLimit', () => fail(tooLarge()));
    bb.on('fieldsLimit', () => fail(tooLarge()));
    bb.on('error', (e: Error) =>
      fail(
        new WebhookRefusal('malformed', 'REQUEST_MALFORMED', `The form body cannot be read: ${e.message}.`),
      ),
    );
    bb.on('close', () => {
      if (!failed) resolve({ fields, files });
    });
    req.pipe(bb);
  });
}
