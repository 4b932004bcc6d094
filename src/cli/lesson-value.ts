/**
 * The lesson value a person gives on the command line (`--value JSON`, `--set key=value`, or both,
 * `--set` winning), for `teach` and `dry-run`. Opaque here: keys are passed through unread (§9).
 */
import { isPlainObject } from '../domain/json.ts';
import { UsageError } from './command.ts';

export function lessonValueFromOptions(values: {
  readonly value?: string | undefined;
  readonly set?: readonly string[] | undefined;
}): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  if (values.value !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(values.value);
    } catch (e) {
      throw new UsageError(`--value is not JSON (${(e as Error).message}); e.g. --value '{"key":"text"}'`);
    }
    if (!isPlainObject(parsed))
      throw new UsageError('--value must be a JSON object, e.g. --value \'{"key":"text"}\'');
    value = { ...parsed };
  }
  for (const pair of values.set ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--set needs key=value, got "${pair}"`);
    value[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  if (values.value === undefined && (values.set ?? []).length === 0) {
    throw new UsageError('give the lesson value with --value JSON or --set key=value');
  }
  return value;
}
