/**
 * Invariant: every domain error code has exactly one JSON-RPC mapping on the A2A endpoint (house
 * style: one wire mapping per transport), and a fault never leaks its message.
 */
import { describe, expect, it } from 'vitest';
import { DomainError, ERROR_CODES } from '../domain/errors.ts';
import { JSON_RPC_CODE, toJsonRpcError } from './errors.ts';

describe('A2A error table', () => {
  it('maps every domain error code, keeping its code as the ErrorInfo reason', () => {
    for (const code of ERROR_CODES) {
      const mapped = toJsonRpcError(new DomainError(code, `message for ${code}`), () => {});
      expect(mapped.code).toBe(JSON_RPC_CODE[code]);
      const internal = JSON_RPC_CODE[code] === -32603;
      expect(mapped.data?.[0]?.reason).toBe(internal ? 'INTERNAL' : code);
      if (internal) expect(mapped.message).not.toContain(code);
      else expect(mapped.message).toBe(`message for ${code}`);
    }
  });

  it('lists no code the domain does not have', () => {
    expect(Object.keys(JSON_RPC_CODE).sort()).toEqual([...ERROR_CODES].sort());
  });
});
