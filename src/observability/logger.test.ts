// Invariant: the JSON log censors credentials and content fields by name (pino redact) and every
// address wherever it hides (§14), and writes nothing below LOG_LEVEL.
import { describe, expect, it } from 'vitest';
import { createLogger, REDACTED } from './logger.ts';

function capture(level: Parameters<typeof createLogger>[0]['level']) {
  const lines: string[] = [];
  return {
    logger: createLogger({ level, destination: { write: (s: string) => void lines.push(s) } }),
    lines,
  };
}

describe('the JSON log', () => {
  it('censors tokens, passwords, Authorization headers, lesson values and mail text by field name', () => {
    const { logger, lines } = capture('info');
    logger.info(
      {
        token: 'tok-secret-1',
        password: 'pw-secret-2',
        req: { headers: { authorization: 'Bearer tok-secret-3' } },
        lesson: { pattern: 'secret-pattern-4' },
        nested: { value: { pattern: 'secret-pattern-5' }, body: 'mail body 6', signingKey: 'key-7' },
      },
      'hello',
    );
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(lines[0]).not.toMatch(/secret|mail body|key-7/);
    expect(line.token).toBe(REDACTED);
    expect((line.nested as Record<string, unknown>).value).toBe(REDACTED);
  });

  it("censors a child logger's bindings and leaves the caller's object unchanged", () => {
    const { logger, lines } = capture('info');
    const fields = { res: { headers: { 'set-cookie': 'sid=secret-8' } }, nested: { token: 'tok-secret-9' } };
    logger.child({ token: 'tok-secret-10' }).info(fields, 'hello');
    expect(lines[0]).not.toMatch(/secret/);
    expect(fields.nested.token).toBe('tok-secret-9');
    expect(fields.res.headers['set-cookie']).toBe('sid=secret-8');
  });

  it('replaces every address, in a message, a field or a key, with [address]', () => {
    const { logger, lines } = capture('info');
    logger.warn({ from: 'dana@warehouse.example', ['x@y.example']: 1 }, 'mail from billing@origin.example');
    expect(lines[0]).not.toMatch(/@/);
    expect(JSON.parse(lines[0]!)).toMatchObject({ from: '[address]', msg: 'mail from [address]' });
  });

  it('writes nothing below its level', () => {
    const { logger, lines } = capture('warn');
    logger.info('not written');
    logger.debug('not written');
    logger.warn('written');
    expect(lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(['written']);
  });
});
