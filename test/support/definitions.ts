/**
 * Test helper: a definition built by absorbing lessons through the real learnables (no authority, no
 * store), and a message builder. Each lesson gets its own activation number, so provenance is real.
 */
import type { Definition } from '../../src/domain/definitions/index.ts';
import {
  createLearnables,
  type EntryContent,
  type Learnable,
  type LessonValue,
} from '../../src/domain/learnables/index.ts';
import type { MailMessage } from '../../src/domain/mail/index.ts';

export interface TestLesson {
  readonly collection: string;
  readonly entry: string;
  readonly value: LessonValue;
  readonly taughtBy?: string;
}

export function buildDefinition(
  lessons: readonly TestLesson[],
  options: { learnables?: readonly Learnable[]; versionId?: string } = {},
): Definition {
  const learnables = options.learnables ?? createLearnables();
  const collections = new Map<string, Map<string, EntryContent>>();
  lessons.forEach((lesson, i) => {
    const learnable = learnables.find((l) => l.collection === lesson.collection);
    if (learnable === undefined) throw new Error(`no learnable ${lesson.collection}`);
    const entries = collections.get(lesson.collection) ?? new Map<string, EntryContent>();
    collections.set(lesson.collection, entries);
    const result = learnable.absorb(lesson.entry, entries.get(lesson.entry), lesson.value, {
      activation: i + 1,
      taughtBy: lesson.taughtBy ?? 'person:1',
      at: `2026-09-01T00:00:${String(i % 60).padStart(2, '0')}.000Z`,
    });
    if (result.outcome === 'refused') throw new Error(`test lesson refused: ${result.reason}`);
    if (result.outcome === 'learned') entries.set(lesson.entry, result.content);
  });
  return { versionId: options.versionId ?? 'sha256:test', collections };
}

let counter = 0;

export function mail(over: Partial<MailMessage> = {}): MailMessage {
  counter++;
  return {
    messageId: `m${counter}@test.example`,
    contentHash: String(counter).padStart(64, '0'),
    from: { address: 'someone@unknown.example', name: '' },
    replyTo: [],
    to: [{ address: 'imports@forwarder.example', name: '' }],
    cc: [],
    subject: 'Hello',
    date: null,
    body: 'Hello team,\nplease see below.\nKind regards',
    attachments: [],
    isReply: false,
    isForward: false,
    isAutomated: false,
    ...over,
  };
}

/** A CSV attachment with a parsed table. */
export function csv(filename: string, headings: string[], rows: string[][]) {
  const text = [headings.join(','), ...rows.map((r) => r.join(','))].join('\n');
  return { filename, contentType: 'text/csv', sizeBytes: text.length, text, table: { headings, rows } };
}
