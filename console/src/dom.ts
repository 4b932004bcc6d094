/**
 * A tiny element builder: text always goes in as text (never HTML), so anything a server or a user
 * wrote is data on the page. Deliberately not a framework: no state, no diffing.
 */
type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | boolean | undefined> = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    el.setAttribute(name, value === true ? '' : value);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === 'string' ? document.createTextNode(c) : c);
  }
  return el;
}

let ids = 0;
/** A fresh id for label/input pairs. */
export function uid(prefix: string): string {
  ids += 1;
  return `${prefix}-${ids}`;
}

/** Announce a sentence to assistive technology and show it in the status line. */
export function say(text: string): void {
  const status = document.getElementById('status');
  if (status !== null) status.textContent = text;
}
