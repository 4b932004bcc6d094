/**
 * What every console page shares: the signed-in session, the page frame, and the words for a
 * problem. Pages live in ./pages/, one file a page (issue 27), as src/ is split by concept.
 */
import type { Api, JsonObject } from './api.ts';
import { h, uid } from './dom.ts';
import type { ReportSection } from './wire.ts';

export interface Session {
  readonly agent: Api;
  readonly authority: Api;
  /** Who lessons are taught by: the signed-in person (§9 taughtBy). */
  readonly person: string;
  readonly learnables: JsonObject[];
  /** Entry labels learned from readings: collection -> entry -> label. */
  readonly labels: Map<string, Map<string, string>>;
}

export const main = document.getElementById('main') as HTMLElement;
export const STORE_KEY = 'learnables-console';

export function show(title: string, ...content: (Node | null)[]): void {
  document.title = `${title} · Operator console`;
  main.replaceChildren(h('h1', {}, title), ...content.filter((c): c is Node => c !== null));
  for (const a of document.querySelectorAll('#nav a')) {
    if (a.getAttribute('href') === location.hash) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export function descriptorOf(s: Session, collection: string): JsonObject | null {
  return s.learnables.find((l) => l.collection === collection) ?? null;
}

export function entryNoun(s: Session, collection: string): string {
  const d = descriptorOf(s, collection);
  return d !== null && typeof d.entry === 'string' ? d.entry : 'entry';
}

export function labelOf(s: Session, collection: string, entry: string): string {
  return s.labels.get(collection)?.get(entry) ?? entry;
}

export function learnLabels(s: Session, sections: readonly ReportSection[]): void {
  for (const sec of sections) {
    let m = s.labels.get(sec.collection);
    if (m === undefined) s.labels.set(sec.collection, (m = new Map<string, string>()));
    for (const c of sec.candidates) if (c.label !== '') m.set(c.name, c.label);
  }
}

/** A refusal or fault, in the server's words, shown beside what the person was doing. */
export function problem(e: unknown): HTMLElement {
  return h('p', { class: 'problem', role: 'alert' }, errorText(e));
}

export function reasonField(labelText: string): { element: HTMLElement; input: HTMLInputElement } {
  const id = uid('why');
  const input = h('input', { id, type: 'text', required: true, autocomplete: 'off' });
  return { element: h('div', { class: 'field' }, h('label', { for: id }, labelText), input), input };
}
