// Issue 41: one log line per request. A layer's fields go on the line of the HTTP request it runs
// in; outside a request (an IMAP sweep), or once that line is written, they are a line of their own.
import { describe, expect, it } from 'vitest';
import { logWithRequest, withCallContext } from './request-context.ts';

describe('logWithRequest', () => {
  const lines: { fields: Record<string, unknown>; message: string }[] = [];
  const log = (fields: Record<string, unknown>, message: string): void =>
    void lines.push({ fields, message });

  it('writes a line of its own outside an HTTP request', () => {
    lines.length = 0;
    logWithRequest(log, { triage: { outcome: 'completed' } }, 'message triaged');
    expect(lines).toEqual([{ fields: { triage: { outcome: 'completed' } }, message: 'message triaged' }]);
  });

  it("adds to the request's line while it is open, and writes its own once the line is written", () => {
    lines.length = 0;
    let added: Record<string, unknown> = {};
    let written = false;
    const addToLine = (f: Readonly<Record<string, unknown>>): boolean => {
      if (written) return false;
      added = { ...added, ...f };
      return true;
    };
    withCallContext({ requestId: 'r1', addToLine }, () => {
      logWithRequest(log, { triage: { outcome: 'completed' } }, 'message triaged');
      expect(lines).toEqual([]);
      expect(added).toEqual({ triage: { outcome: 'completed' } });
      written = true;
      logWithRequest(log, { intake: { state: 'completed' } }, 'message taken in');
    });
    expect(lines).toEqual([{ fields: { intake: { state: 'completed' } }, message: 'message taken in' }]);
  });
});
