/**
 * The extension's JSON Schema (Appendix A), as published in `schema/extension.json` (a copy of
 * https://rsaxb.com/a2a/learnables/v1/extension.json): its declaration's `params`, and the
 * TeachBlock and LessonResult objects. A value that does not validate is named with ajv's words.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

const published = JSON.parse(readFileSync(new URL('../schema/extension.json', import.meta.url), 'utf8')) as {
  readonly declaration: { readonly params: Record<string, unknown> };
  readonly $defs: Record<string, unknown>;
};

const ajv = new Ajv2020({ strict: false, allErrors: true });
const validators: Record<'params' | 'TeachBlock' | 'LessonResult', ValidateFunction> = {
  params: ajv.compile({ ...published.declaration.params, $defs: published.$defs }),
  TeachBlock: ajv.compile({ $ref: '#/$defs/TeachBlock', $defs: published.$defs }),
  LessonResult: ajv.compile({ $ref: '#/$defs/LessonResult', $defs: published.$defs }),
};

/** null when `value` validates as `what`; else what is wrong, in ajv's words. */
export function schemaProblems(what: keyof typeof validators, value: unknown): string | null {
  const validate = validators[what];
  if (validate(value)) return null;
  return ajv.errorsText(validate.errors, { dataVar: what });
}
