/**
 * The results of a run: each check PASS, FAIL, SKIP or N/A with its section and its reason in
 * words, one line each, a summary, and JUnit XML for CI systems. A run holds when no check failed;
 * in strict mode, also when none was skipped.
 *
 * SKIP and N/A differ: a SKIP is a MUST the kit could not check on this agent (no second tenant's
 * token, no history in the adapter, an interface the SDK does not speak), so it may not hold; N/A
 * is a MUST that does not apply, by what the card declares (no streaming, no teachMethod, no
 * security scheme) or by the protocol (A2A 0.3 has no ListTasks).
 */
export type Status = 'PASS' | 'FAIL' | 'SKIP' | 'N/A';

export interface CheckResult {
  /** Stable and unique in a run, e.g. `activation.no-block.get.JSONRPC`. */
  readonly id: string;
  /** The spec section it proves, e.g. `§10.2`. */
  readonly section: string;
  readonly status: Status;
  /** What held, what did not, or why the check could not run. */
  readonly reason: string;
}

/** An error in words: its message, or the thrown value as text. */
export function words(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Collects results; a check that throws is a FAIL with the error's words. */
export class Recorder {
  readonly results: CheckResult[] = [];
  constructor(private readonly onResult: (r: CheckResult) => void = () => {}) {}

  record(id: string, section: string, status: Status, reason: string): CheckResult {
    const result = { id, section, status, reason };
    this.results.push(result);
    this.onResult(result);
    return result;
  }
  pass(id: string, section: string, reason: string): CheckResult {
    return this.record(id, section, 'PASS', reason);
  }
  fail(id: string, section: string, reason: string): CheckResult {
    return this.record(id, section, 'FAIL', reason);
  }
  skip(id: string, section: string, reason: string): CheckResult {
    return this.record(id, section, 'SKIP', reason);
  }
  /** A MUST that does not apply to this agent, by its card or its protocol. */
  na(id: string, section: string, reason: string): CheckResult {
    return this.record(id, section, 'N/A', reason);
  }
  /** PASS with `passed` when `problem` is null, else FAIL with it. */
  verdict(id: string, section: string, problem: string | null, passed: string): CheckResult {
    return problem === null ? this.pass(id, section, passed) : this.fail(id, section, problem);
  }
  /** Runs `check`; an exception is a FAIL naming what was being done. */
  async attempt(
    id: string,
    section: string,
    doing: string,
    check: () => Promise<CheckResult>,
  ): Promise<CheckResult> {
    try {
      return await check();
    } catch (e) {
      return this.fail(id, section, `${doing} failed: ${words(e)}`);
    }
  }
}

export function line(r: CheckResult): string {
  return `${r.status.padEnd(4)} ${r.section.padEnd(6)} ${r.id}: ${r.reason}`;
}

export function summary(results: readonly CheckResult[]): string {
  const count = (s: Status): number => results.filter((r) => r.status === s).length;
  const held = count('FAIL') === 0;
  return `${results.length} checks: ${count('PASS')} passed, ${count('FAIL')} failed, ${count('SKIP')} skipped, ${count('N/A')} not applicable. ${
    held
      ? count('SKIP') === 0
        ? 'Every MUST that applies was checked and held.'
        : 'Every MUST the kit could check held.'
      : 'Some MUSTs did not hold.'
  }`;
}

/** In strict mode (`--strict`), what makes the run fail besides a FAIL: each MUST left unchecked, in words. */
export function unchecked(results: readonly CheckResult[]): string[] {
  return results.filter((r) => r.status === 'SKIP').map((r) => `${r.section} ${r.id}: ${r.reason}`);
}

const xml = (s: string): string =>
  s.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!,
  );

/** JUnit XML: one testsuite, one testcase per check, a failure or a skipped element with its reason. */
export function junit(results: readonly CheckResult[], suite: string): string {
  const failures = results.filter((r) => r.status === 'FAIL').length;
  const skipped = results.filter((r) => r.status === 'SKIP' || r.status === 'N/A').length;
  const cases = results.map((r) => {
    const open = `    <testcase classname="${xml(r.section)}" name="${xml(r.id)}">`;
    if (r.status === 'PASS') return `${open}</testcase>`;
    const tag = r.status === 'FAIL' ? 'failure' : 'skipped';
    const message = r.status === 'N/A' ? `not applicable: ${r.reason}` : r.reason;
    return `${open}<${tag} message="${xml(message)}"/></testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites tests="${results.length}" failures="${failures}" skipped="${skipped}">`,
    `  <testsuite name="${xml(suite)}" tests="${results.length}" failures="${failures}" skipped="${skipped}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
