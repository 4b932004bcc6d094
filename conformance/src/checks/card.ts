/**
 * §6 the declaration: on the card fetched without a token and without activation (§7: data-only),
 * the extension is declared with `required: false`, its params validate against the schema, and
 * each learnable's descriptor and lesson fields keep §6.2 and §6.3.
 */
import { declarationOf, EXTENSION_URI } from '../agent.ts';
import type { Wire } from '../adapter.ts';
import type { Recorder } from '../report.ts';
import { schemaProblems } from '../schema.ts';

/** Words a `how` must not be (§6.2 "MUST NOT be a placeholder"). */
const PLACEHOLDER =
  /^\s*(todo|tbd|tba|fixme|xxx|placeholder|lorem ipsum|n\/a|none|-|\.\.\.|…|how it decides)?\s*[.!]*\s*$/i;

/** The declaration, or null (reported) when the card has none. */
export function checkCard(card: Wire, r: Recorder): Wire {
  const ext = declarationOf(card);
  if (ext === undefined) {
    r.fail('card.declared', '§6.1', `capabilities.extensions has no entry with uri ${EXTENSION_URI}`);
    return null;
  }
  r.verdict(
    'card.declared',
    '§6.1',
    ext.required === false
      ? null
      : `the declaration's "required" is ${JSON.stringify(ext.required)}, and must be false`,
    'declared in capabilities.extensions with required: false, on the card served without a token or activation (§7)',
  );
  const problems = schemaProblems('params', ext.params);
  r.verdict(
    'card.schema',
    '§6',
    problems,
    "params validate against the extension's JSON Schema (Appendix A)",
  );
  const learnables: Wire[] = Array.isArray(ext.params?.learnables) ? ext.params.learnables : [];
  checkDescriptors(learnables, card, r);
  return ext;
}

function checkDescriptors(learnables: readonly Wire[], card: Wire, r: Recorder): void {
  const names = learnables.map((l) => l?.collection);
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  r.verdict(
    'card.collections-unique',
    '§6.2',
    twice.length === 0 ? null : `collection ${JSON.stringify(twice[0])} is declared twice`,
    `${learnables.length} learnable(s), each collection named once: ${names.map((n) => JSON.stringify(n)).join(', ') || 'none'}`,
  );
  const how = learnables.flatMap((l) => {
    const wrong: string[] = [];
    if (typeof l?.how !== 'string' || PLACEHOLDER.test(l.how))
      wrong.push(`${l?.collection}: "how" is ${JSON.stringify(l?.how)}, a placeholder`);
    if (typeof l?.decidedBy !== 'string' || l.decidedBy.trim() === '')
      wrong.push(`${l?.collection}: "decidedBy" is missing`);
    return wrong;
  });
  r.verdict(
    'card.how-decided-by',
    '§6.2',
    how[0] ?? null,
    'every learnable says how it decides today and by what',
  );
  r.verdict('card.lesson-fields', '§6.3', fieldProblems(learnables)[0] ?? null, fieldsPassed(learnables));
  const skills = new Set((Array.isArray(card?.skills) ? card.skills : []).map((s: Wire) => s?.id));
  const unknown = learnables.flatMap((l) =>
    (Array.isArray(l?.skills) ? l.skills : [])
      .filter((s: unknown) => !skills.has(s))
      .map((s: unknown) => `${l.collection}: ${String(s)}`),
  );
  r.verdict(
    'card.skills',
    '§6.2',
    unknown.length === 0 ? null : `a learnable names skills the card does not list: ${unknown.join(', ')}`,
    'every skill a learnable names is a skill on the card',
  );
}

function fieldsPassed(learnables: readonly Wire[]): string {
  const count = learnables.reduce(
    (n, l) => n + (Array.isArray(l?.lessonFields) ? l.lessonFields.length : 0),
    0,
  );
  return `${count} lesson field(s): names unique in their learnable, labels non-empty, every choice field with choices and its default among them`;
}

/** §6.3 for every field of every learnable, in words; empty when all hold. */
function fieldProblems(learnables: readonly Wire[]): string[] {
  return learnables.flatMap((l) => {
    const fields: Wire[] = Array.isArray(l?.lessonFields) ? l.lessonFields : [];
    const names = fields.map((f) => f?.name);
    return fields.flatMap((f, i) => {
      const at = `${l?.collection}.${String(f?.name)}`;
      const wrong: string[] = [];
      if (names.indexOf(f?.name) !== i) wrong.push(`${at}: the name is used twice in one learnable`);
      if (typeof f?.label !== 'string' || f.label.trim() === '') wrong.push(`${at}: the label is empty`);
      if (f?.kind === 'choice') {
        if (!Array.isArray(f.choices) || f.choices.length === 0)
          wrong.push(`${at}: a choice field without choices`);
        else if (f.default !== undefined && !f.choices.includes(f.default))
          wrong.push(
            `${at}: the default ${JSON.stringify(f.default)} is not among the choices ${JSON.stringify(f.choices)}`,
          );
      }
      return wrong;
    });
  });
}
