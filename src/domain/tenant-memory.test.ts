// Invariant (issue 51): one budget for every tenant's reading memory; past it, the least recently
// used tenant is forgotten whole (by every part at once), and the tenant just used always stays.
import { describe, expect, it } from 'vitest';
import { tenantId, type TenantId } from './tenant.ts';
import { createTenantMemory, RESIDENT_PER_HELD, type TenantMemoryPart } from './tenant-memory.ts';

/**
 * A part holding bytes for every tenant it has been given, recording what it was told to forget;
 * `held.set(t, n)` makes the tenant's resident estimate n (the part holds n / RESIDENT_PER_HELD).
 */
function part(name: string) {
  const live = new Map<TenantId, number>();
  const held = { set: (t: TenantId, resident: number) => live.set(t, resident / RESIDENT_PER_HELD) };
  const forgotten: TenantId[] = [];
  const self: TenantMemoryPart & { held: typeof held; forgotten: typeof forgotten } = {
    name,
    held,
    forgotten,
    bytesOf: (t) => live.get(t) ?? 0,
    forget(t) {
      live.delete(t);
      forgotten.push(t);
    },
  };
  return self;
}

const [a, b, c] = ['a', 'b', 'c'].map((n) => tenantId(`t-${n}`)) as [TenantId, TenantId, TenantId];

describe('one memory budget for every tenant', () => {
  it('forgets the least recently used tenant whole, in every part, once the sum passes the budget', () => {
    const definitions = part('definitions');
    const matchers = part('matchers');
    const memory = createTenantMemory({ budgetBytes: 100, parts: [definitions, matchers] });
    for (const t of [a, b]) {
      definitions.held.set(t, 20);
      matchers.held.set(t, 20);
      memory.used(t);
    }
    memory.used(a); // a is now the most recent; b the least
    expect(memory.stats()).toMatchObject({ tenants: 2, bytes: 80, evictions: 0 });
    definitions.held.set(c, 30);
    matchers.held.set(c, 10);
    memory.used(c);
    expect(definitions.forgotten).toEqual([b]);
    expect(matchers.forgotten).toEqual([b]);
    expect(memory.stats()).toMatchObject({ tenants: 2, bytes: 80, budgetBytes: 100, evictions: 1 });
  });

  it('keeps the tenant just used even alone over the budget', () => {
    const definitions = part('definitions');
    const memory = createTenantMemory({ budgetBytes: 100, parts: [definitions] });
    definitions.held.set(a, 10);
    memory.used(a);
    definitions.held.set(b, 500);
    memory.used(b);
    expect(definitions.forgotten).toEqual([a]);
    expect(memory.stats()).toMatchObject({ tenants: 1, bytes: 500 });
  });

  it('reads every tenant again before forgetting any (a part that grew or shrank since)', () => {
    const matchers = part('matchers');
    const memory = createTenantMemory({ budgetBytes: 100, parts: [matchers] });
    matchers.held.set(a, 10);
    memory.used(a); // a's matcher is compiled after its use: counted 10, holds 60 by the next
    matchers.held.set(a, 60);
    matchers.held.set(b, 50);
    memory.used(b); // 10 + 50 by the last figures, but 110 read again: a goes
    expect(matchers.forgotten).toEqual([a]);
    matchers.held.set(b, 10); // shrank (an erase) without being used
    matchers.held.set(c, 95);
    memory.used(c); // 50 + 95 by the last figures, 105 read again: b goes, c stays
    expect(matchers.forgotten).toEqual([a, b]);
    expect(memory.stats().bytes).toBe(95);
  });

  it('refuses a budget that is not a number of bytes above 0', () => {
    expect(() => createTenantMemory({ budgetBytes: 0, parts: [] })).toThrow(/above 0, got 0/);
  });
});
