/**
 * The SDK's User for an authenticated caller: it carries the Principal (§13.2), and the task store
 * scope that keeps one tenant's tasks invisible to every other tenant.
 */
import type { OwnerResolver, ServerCallContext, User } from '@a2a-js/sdk/server';
import type { Principal } from '../domain/authority/index.ts';

export class PrincipalUser implements User {
  constructor(readonly principal: Principal) {}

  get isAuthenticated(): boolean {
    return true;
  }

  get userName(): string {
    return this.principal.id;
  }
}

/** The caller's principal; throws when the request reached the agent unauthenticated (a wiring fault). */
export function principalOfContext(context: ServerCallContext): Principal {
  const user = context.user;
  if (!(user instanceof PrincipalUser))
    throw new Error('A2A request reached the executor without an authenticated principal');
  return user.principal;
}

/**
 * §13.2: tasks are scoped to the caller's tenant, whatever `tenant` the request names. All
 * principals of one tenant share its tasks (the operator answers questions the mailbox raised);
 * another tenant's task is simply not found. Unauthenticated contexts never reach the store (the
 * bearer check answers 401 first); they get a scope no tenant can have.
 */
export const tenantOwnerResolver: OwnerResolver = (context) => {
  const user = context.user;
  return user instanceof PrincipalUser ? `${user.principal.tenant}/*` : '\u0000unauthenticated';
};
