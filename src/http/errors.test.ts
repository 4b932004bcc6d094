// Invariant: every error code has exactly one HTTP status, documented in docs/errors.md, and faults leak nothing.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DomainError, ERROR_CODES } from '../domain/errors.ts';
import { HTTP_STATUS, toHttpError } from './errors.ts';

const docs = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');

describe('HTTP error mapping', () => {
  it.each(ERROR_CODES.map((c) => [c]))(
    'documents %s in docs/errors.md with the status the server sends',
    (code) => {
      const row = docs.split('\n').find((line) => line.startsWith(`| \`${code}\` |`));
      expect(row, `docs/errors.md has no row for ${code}`).toBeDefined();
      const cells = row!.split('|').map((c) => c.trim());
      expect(cells[2]!.length).toBeGreaterThan(10);
      expect(Number(cells[3])).toBe(HTTP_STATUS[code]);
    },
  );

  it('documents no code that does not exist', () => {
    const documented = [...docs.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
    expect(documented.sort()).toEqual([...ERROR_CODES].sort());
  });

  it('keeps a domain error’s code, message and details', () => {
    const logged: unknown[] = [];
    const e = new DomainError(
      'COLLECTION_UNKNOWN',
      'There is no collection "clients"; declared: customers, kinds, mappings.',
      {
        details: { declared: ['customers', 'kinds', 'mappings'] },
      },
    );
    const { status, body } = toHttpError(e, (_m, c) => logged.push(c));
    expect(status).toBe(422);
    expect(body).toEqual({
      error: {
        code: 'COLLECTION_UNKNOWN',
        message: e.message,
        details: { declared: ['customers', 'kinds', 'mappings'] },
      },
    });
    expect(logged).toEqual([]);
  });

  it('turns an unexpected error into a 500 with no internals, and logs the cause', () => {
    const logged: unknown[] = [];
    const fault = new Error('SQLITE_CORRUPT: database disk image is malformed at /srv/data/agent.db');
    const { status, body } = toHttpError(fault, (_m, c) => logged.push(c));
    expect(status).toBe(500);
    expect(body.error.code).toBe('INTERNAL');
    expect(JSON.stringify(body)).not.toMatch(/SQLITE|agent\.db|\/srv/);
    expect(logged).toEqual([fault]);
  });

  it('hides the message of a server-side domain error too', () => {
    const logged: unknown[] = [];
    const { status, body } = toHttpError(
      new DomainError('CONFIG_INVALID', 'AUTHORITY_TOKEN=lt_secret is bad'),
      (_m, c) => logged.push(c),
    );
    expect(status).toBe(500);
    expect(JSON.stringify(body)).not.toContain('lt_secret');
    expect(logged).toHaveLength(1);
  });

  it('maps the body parser’s errors to codes a person can act on', () => {
    const parse = Object.assign(new SyntaxError('Unexpected token'), {
      type: 'entity.parse.failed',
      status: 400,
    });
    const large = Object.assign(new Error('too large'), {
      type: 'entity.too.large',
      status: 413,
      limit: 1024,
    });
    expect(toHttpError(parse, () => {}).body.error.code).toBe('REQUEST_MALFORMED');
    expect(toHttpError(large, () => {})).toMatchObject({
      status: 413,
      body: { error: { code: 'REQUEST_TOO_LARGE' } },
    });
  });
});
