/**
 * The authority API's request fields, checked so a 400 names every bad one in words: the §9 Lesson
 * envelope (its value only checked to be an object: what it holds is for the learnable, §10.1),
 * the write bodies' `taughtBy` and `reason`, and the query's numbers and strings.
 */
import type { Lesson } from '../domain/authority/index.ts';
import { DomainError } from '../domain/errors.ts';
import { isPlainObject } from '../domain/json.ts';

/**
 * The Lesson envelope of §9, checked field by field so a 400 names every bad one. The value is
 * only checked to be an object: what it holds is for the learnable to judge (§9, §10.1).
 */
export function parseLesson(body: unknown): Lesson {
  const obj = requireObject(
    body,
    '{ "collection": "customers", "entry": "northgate", "value": { … }, "taughtBy": "dana@warehouse.example", "reason": "…" }',
    'LESSON_MALFORMED',
  );
  const problems: string[] = [];
  const collection = stringField(obj, 'collection', problems);
  const entry = stringField(obj, 'entry', problems);
  if (!isPlainObject(obj.value))
    problems.push('"value" must be a JSON object holding the lesson fields of the collection');
  const taughtBy = stringField(obj, 'taughtBy', problems);
  if (obj.reason !== undefined && obj.reason !== null && typeof obj.reason !== 'string')
    problems.push('"reason", when given, must be a string');
  throwIfProblems(problems, 'LESSON_MALFORMED');
  const lesson: { -readonly [K in keyof Lesson]: Lesson[K] } = {
    collection: collection!,
    entry: entry!,
    value: obj.value as Lesson['value'],
    taughtBy: taughtBy!,
  };
  if (typeof obj.reason === 'string') lesson.reason = obj.reason;
  return lesson;
}

export function requireObject(
  body: unknown,
  example: string,
  code: 'LESSON_MALFORMED' | 'REQUEST_MALFORMED' = 'REQUEST_MALFORMED',
): Record<string, unknown> {
  if (!isPlainObject(body)) {
    throw new DomainError(
      code,
      `Send a JSON object with Content-Type: application/json, for example ${example}.`,
    );
  }
  return body;
}

export function stringField(
  obj: Record<string, unknown>,
  name: string,
  problems: string[],
): string | undefined {
  const v = obj[name];
  if (typeof v !== 'string' || v.trim() === '') {
    problems.push(`"${name}" must be a non-empty string`);
    return undefined;
  }
  return v;
}

export function intField(
  obj: Record<string, unknown>,
  name: string,
  problems: string[],
  min: number,
): number | undefined {
  const v = obj[name];
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) {
    problems.push(`"${name}" must be a whole number of at least ${min}`);
    return undefined;
  }
  return v;
}

export function whoAndWhy(
  body: Record<string, unknown>,
  problems: string[],
): { taughtBy: string; reason?: string } {
  const taughtBy = stringField(body, 'taughtBy', problems);
  if (body.reason !== undefined && body.reason !== null && typeof body.reason !== 'string')
    problems.push('"reason", when given, must be a string');
  return typeof body.reason === 'string'
    ? { taughtBy: taughtBy!, reason: body.reason }
    : { taughtBy: taughtBy! };
}

export function throwIfProblems(
  problems: readonly string[],
  code: 'LESSON_MALFORMED' | 'REQUEST_MALFORMED' = 'REQUEST_MALFORMED',
): void {
  if (problems.length === 0) return;
  const fields = problems.map((p) => /^"([^"]+)"/.exec(p)?.[1] ?? p);
  throw new DomainError(code, `Fix these fields and send it again: ${problems.join('; ')}.`, {
    details: { fields },
  });
}

export function optionalIntQuery(v: unknown, name: string, min: number): number | undefined {
  if (v === undefined) return undefined;
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n) || n < min) {
    throw new DomainError('REQUEST_MALFORMED', `?${name}= must be a whole number of at least ${min}.`, {
      details: { fields: [name] },
    });
  }
  return n;
}

export function optionalStringQuery(v: unknown, name: string): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v === '') {
    throw new DomainError('REQUEST_MALFORMED', `?${name}= must be given once, with a value.`, {
      details: { fields: [name] },
    });
  }
  return v;
}
