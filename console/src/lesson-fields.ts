/**
 * Blind rendering of lesson fields (§6.3): the console knows nothing of any one learnable. Each
 * declared field becomes a labelled control: a select for `choice` (prefilled with `default`), a
 * text box for `text`, and a text box for any kind it does not know (§6.3 MUST: never dropped,
 * never an error). `suggested` prefills by field name (§8) and `suggestionLabel` says what it came
 * from. The value read back is keyed by the declared names only and is never looked into (§9).
 *
 * Deliberately not here: validating a value (the learnable judges it, §10.1) or naming any field.
 */
import { isObject, type Json, type JsonObject } from './api.ts';
import { h, uid } from './dom.ts';

export interface LessonField {
  readonly name: string;
  readonly label: string;
  readonly kind: string;
  readonly choices?: readonly string[];
  readonly default?: string;
  readonly help?: string;
}

/** The declared fields of a teach block or descriptor, skipping only what is not a field at all. */
export function lessonFieldsOf(v: Json | undefined): LessonField[] {
  if (!Array.isArray(v)) return [];
  const out: LessonField[] = [];
  for (const f of v) {
    if (!isObject(f) || typeof f.name !== 'string') continue;
    const field: { -readonly [K in keyof LessonField]: LessonField[K] } = {
      name: f.name,
      label: typeof f.label === 'string' && f.label !== '' ? f.label : f.name,
      kind: typeof f.kind === 'string' ? f.kind : 'text',
    };
    if (Array.isArray(f.choices)) field.choices = f.choices.filter((c): c is string => typeof c === 'string');
    if (typeof f.default === 'string') field.default = f.default;
    if (typeof f.help === 'string') field.help = f.help;
    out.push(field);
  }
  return out;
}

export interface RenderedFields {
  readonly element: HTMLFieldSetElement;
  /** The lesson value: declared name -> what the person entered (empty text boxes left out). */
  value(): JsonObject;
  /** Put a refusal's words next to the field it concerns (or under the whole set). */
  showProblem(fieldName: string | null, text: string): void;
  clearProblems(): void;
}

export function renderLessonFields(
  fields: readonly LessonField[],
  suggested: JsonObject | null,
  suggestionLabel: string | null,
  legend: string,
): RenderedFields {
  const controls = new Map<string, HTMLInputElement | HTMLSelectElement>();
  const problems = new Map<string, HTMLElement>();
  const setProblem = h('p', { class: 'problem', role: 'alert', hidden: true });
  const rows = fields.map((f) => {
    const id = uid('field');
    const helpId = `${id}-help`;
    const problemId = `${id}-problem`;
    const prefill = suggested?.[f.name];
    const initial = typeof prefill === 'string' ? prefill : (f.default ?? '');
    let control: HTMLInputElement | HTMLSelectElement;
    if (f.kind === 'choice' && f.choices !== undefined && f.choices.length > 0) {
      const select = h('select', { id, name: f.name });
      for (const c of f.choices) select.append(h('option', { value: c, selected: c === initial }, c));
      control = select;
    } else {
      // 'text', and every kind this console does not know (§6.3).
      control = h('input', { id, name: f.name, type: 'text', value: initial, autocomplete: 'off' });
      control.value = initial;
    }
    control.setAttribute('aria-describedby', `${helpId} ${problemId}`);
    controls.set(f.name, control);
    const problem = h('p', { id: problemId, class: 'problem', hidden: true });
    problems.set(f.name, problem);
    const suggestedHere = typeof prefill === 'string' && suggestionLabel !== null;
    return h(
      'div',
      { class: 'field' },
      h('label', { for: id }, f.label),
      control,
      h(
        'p',
        { id: helpId, class: 'help' },
        f.help ?? '',
        suggestedHere ? h('span', { class: 'suggestion' }, ` Suggested from ${suggestionLabel}.`) : null,
      ),
      problem,
    );
  });
  const element = h('fieldset', { class: 'lesson-fields' }, h('legend', {}, legend), rows, setProblem);
  return {
    element,
    value() {
      const out: JsonObject = {};
      for (const [name, c] of controls) if (c.value !== '') out[name] = c.value;
      return out;
    },
    showProblem(fieldName, text) {
      const at = (fieldName === null ? undefined : problems.get(fieldName)) ?? setProblem;
      at.textContent = text;
      at.hidden = false;
      const c = fieldName === null ? undefined : controls.get(fieldName);
      c?.setAttribute('aria-invalid', 'true');
    },
    clearProblems() {
      for (const p of [...problems.values(), setProblem]) {
        p.textContent = '';
        p.hidden = true;
      }
      for (const c of controls.values()) c.removeAttribute('aria-invalid');
    },
  };
}

/**
 * Which field a refusal concerns: the one the server names in `details.field`, else the one whose
 * entered value the refusal quotes (learnables quote the value they refused), else none.
 */
export function fieldOfRefusal(
  details: JsonObject | null,
  message: string,
  value: JsonObject,
): string | null {
  if (details !== null && typeof details.field === 'string') return details.field;
  let best: { name: string; length: number } | null = null;
  for (const [name, v] of Object.entries(value)) {
    if (typeof v !== 'string' || v === '') continue;
    if (message.includes(`"${v}"`) || message.includes(`'${v}'`)) {
      if (best === null || v.length > best.length) best = { name, length: v.length };
    }
  }
  return best?.name ?? null;
}
