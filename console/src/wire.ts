/**
 * Reading A2A wire JSON the way a person needs it: the message a task is about (sender, subject,
 * text, attachment names), the agent's question and its teach block (§8), and the reports of a
 * reading or show-back (§11: settled or not, what it saw). Tolerant by construction: a field that is
 * missing is shown as missing, a field that was added is kept.
 *
 * Deliberately not here: any collection's name or any key of a lesson value; sections of a report
 * are found by shape (`settled`), not by name.
 */
import { EXTENSION_URI, isObject, type Json, type JsonObject } from './api.ts';

export interface MailSummary {
  readonly from: string;
  readonly subject: string;
  readonly text: string;
  readonly attachments: readonly string[];
}

export interface TeachBlock {
  readonly collection: string;
  readonly entries: readonly string[];
  readonly suggested: JsonObject | null;
  readonly suggestionLabel: string | null;
  readonly lessonFields: Json | undefined;
}

export interface Candidate {
  readonly name: string;
  readonly label: string;
  readonly score: number | null;
  readonly matched: readonly string[];
  readonly activations: readonly number[];
}

export interface ReportSection {
  readonly collection: string;
  readonly settled: boolean;
  readonly winner: string | null;
  readonly reads: string;
  readonly candidates: readonly Candidate[];
}

const str = (v: Json | undefined): string => (typeof v === 'string' ? v : '');

/** A wire value shown as text: strings and numbers as they are, anything else as `fallback`. */
export function text(v: Json | undefined, fallback = ''): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : fallback;
}

export function taskState(task: JsonObject): string {
  return isObject(task.status) ? str(task.status.state) : '';
}

export function taskTime(task: JsonObject): string {
  return isObject(task.status) ? str(task.status.timestamp) : '';
}

/** The extension's metadata of a task (skill, pin, …) or an empty object. */
export function extensionMeta(v: Json | undefined): JsonObject {
  if (!isObject(v)) return {};
  const m = v[EXTENSION_URI];
  return isObject(m) ? m : {};
}

function textOf(message: Json | undefined): string {
  if (!isObject(message) || !Array.isArray(message.parts)) return '';
  return message.parts
    .map((p) => (isObject(p) && typeof p.text === 'string' ? p.text : ''))
    .filter((t) => t !== '')
    .join('\n');
}

/** The agent's words in the task's current status. */
export function statusText(task: JsonObject): string {
  return isObject(task.status) ? textOf(task.status.message) : '';
}

export function teachBlockOf(task: JsonObject): TeachBlock | null {
  const message = isObject(task.status) ? task.status.message : undefined;
  const teach = isObject(message) ? extensionMeta(message.metadata).teach : undefined;
  if (!isObject(teach) || typeof teach.collection !== 'string') return null;
  return {
    collection: teach.collection,
    entries: Array.isArray(teach.entries) ? teach.entries.filter((e) => typeof e === 'string') : [],
    suggested: isObject(teach.suggested) ? teach.suggested : null,
    suggestionLabel: typeof teach.suggestionLabel === 'string' ? teach.suggestionLabel : null,
    lessonFields: teach.lessonFields,
  };
}

function decodeBase64(b64: string): string {
  try {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  } catch {
    return '';
  }
}

function header(raw: string, name: string): string {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? '';
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const line = unfolded.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line === undefined ? '' : line.slice(name.length + 1).trim();
}

function summaryOfRaw(raw: string): MailSummary {
  const body = raw
    .split(/\r?\n\r?\n/)
    .slice(1)
    .join('\n\n');
  const attachments = [...raw.matchAll(/filename\*?="?([^";\r\n]+)"?/gi)].map((m) => m[1] ?? '');
  return {
    from: header(raw, 'From'),
    subject: header(raw, 'Subject'),
    text: attachments.length > 0 ? '' : body.trim(),
    attachments: [...new Set(attachments.filter((a) => a !== ''))],
  };
}

/** The mail the task was started with: its first user message, in any of the agent's input forms. */
export function mailOf(task: JsonObject): MailSummary | null {
  const history = Array.isArray(task.history) ? task.history : [];
  const first = history.find((m) => isObject(m) && m.role === 'ROLE_USER');
  if (!isObject(first) || !Array.isArray(first.parts)) return null;
  for (const p of first.parts) {
    if (!isObject(p)) continue;
    if (typeof p.raw === 'string') return summaryOfRaw(decodeBase64(p.raw));
    if (isObject(p.data)) {
      const d = p.data;
      const names = Array.isArray(d.attachments)
        ? d.attachments.map((a) => (isObject(a) ? str(a.filename) || str(a.name) : str(a)))
        : [];
      return {
        from: str(d.from),
        subject: str(d.subject),
        text: str(d.body) || str(d.text),
        attachments: names.filter((n) => n !== ''),
      };
    }
    if (typeof p.text === 'string') {
      return /^[\w-]+:/.test(p.text)
        ? summaryOfRaw(p.text)
        : { from: '', subject: '', text: p.text, attachments: [] };
    }
  }
  return null;
}

/** The report sections of a task's data artifact (a reading or a show-back): found by shape. */
export function reportOf(task: JsonObject): ReportSection[] {
  const artifacts = Array.isArray(task.artifacts) ? task.artifacts : [];
  const out: ReportSection[] = [];
  for (const a of artifacts) {
    if (!isObject(a) || !Array.isArray(a.parts)) continue;
    for (const p of a.parts) {
      if (!isObject(p) || !isObject(p.data)) continue;
      for (const section of Object.values(p.data)) {
        if (!isObject(section) || typeof section.settled !== 'boolean') continue;
        out.push(sectionOf(section));
      }
    }
  }
  return out;
}

function sectionOf(s: JsonObject): ReportSection {
  const candidates = Array.isArray(s.candidates) ? s.candidates : [];
  return {
    collection: str(s.collection),
    settled: s.settled === true,
    winner: typeof s.winner === 'string' ? s.winner : null,
    reads: str(s.reads),
    candidates: candidates.filter(isObject).map((c) => ({
      name: str(c.name),
      label: str(c.label) || str(c.name),
      score: typeof c.score === 'number' ? c.score : null,
      matched: Array.isArray(c.matched) ? c.matched.filter((m) => typeof m === 'string') : [],
      activations: Array.isArray(c.evidence)
        ? c.evidence.flatMap((e) => (isObject(e) && typeof e.activation === 'number' ? [e.activation] : []))
        : [],
    })),
  };
}

/** The task of a SendMessage result (the result is the task, or wraps it as `task`). */
export function resultTask(result: JsonObject): JsonObject {
  return isObject(result.task) ? result.task : result;
}
