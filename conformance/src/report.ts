/**
 * The results of a run: each check PASS, FAIL or SKIP with its section and its reason in words,
 * one line each, a summary, and JUnit XML for CI systems. A run holds when no check failed.
 */
export type Status = 'PASS' | 'FAIL' | 'SKIP';

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
  return `${r.status} ${r.section.padEnd(6)} ${r.id}: ${r.reason}`;
}

export function summary(results: readonly CheckResult[]): string {
  const count = (s: Status): number => results.filter((r) => r.status === s).length;
  const held = count('FAIL') === 0;
  return `${results.length} checks: ${count('PASS')} passed, ${count('FAIL')} failed, ${count('SKIP')} skipped. ${
    held ? 'Every MUST the kit could check held.' : 'Some MUSTs did not hold.'
  }`;
}

const xml = (s: string): string =>
  s.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!,
  );

/** JUnit XML: one testsuite, one testcase per check, a failure or a skipped element with its reason. */
export function junit(results: readonly CheckResult[], suite: string): string {
  const failures = results.filter((r) => r.status === 'FAIL').length;
  const skipped = results.filter((r) => r.status === 'SKIP').length;
  const cases = results.map((r) => {
    const open = `    <testcase classname="${xml(r.section)}" name="${xml(r.id)}">`;
    if (r.status === 'PASS') return `${open}</testcase>`;
    const tag = r.status === 'FAIL' ? 'failure' : 'skipped';
    return `${open}<${tag} message="${xml(r.reason)}"/></testcase>`;
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
