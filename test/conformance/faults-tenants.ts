/**
 * §13.2 faults: activation taken for authorization, and a second tenant served as the first: on
 * reading a task, on listing tasks, and on deciding an input with the first tenant's lessons. The
 * kit's tenant checks run on the card's first interface, JSON-RPC.
 */
import type { Exchange } from './fault-proxy.ts';
import { rpcMethod, tokenOf } from './fault-wire.ts';
import type { NamedFault } from './faults.ts';

/** §13.2: a call without credentials is served as if it carried `token` (activation taken for authorization). */
const credentialsAssumed = (token: string): NamedFault => ({
  name: 'calls without credentials served',
  fault: {
    requestHeaders(headers) {
      if (!headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
    },
  },
  fails: [
    { id: 'auth.lesson-needs-credentials', section: '§13.2' },
    { id: 'auth.send-needs-credentials', section: '§13.2' },
  ],
});

/** §13.2: `method` called with the second tenant's token is served as the first tenant's. */
function leak(method: string, id: string, tokens: { token: string; secondToken: string }): NamedFault {
  return {
    name: `the second tenant served as the first on ${method}`,
    fault: {
      requestHeaders(headers: Headers, x: Exchange) {
        if (rpcMethod(x) === method && tokenOf(x) === tokens.secondToken)
          headers.set('authorization', `Bearer ${tokens.token}`);
      },
    },
    fails: [{ id, section: '§13.2' }],
  };
}

export function tenantFaults(tokens: { token: string; secondToken: string }): readonly NamedFault[] {
  return [
    credentialsAssumed(tokens.token),
    leak('GetTask', 'auth.tenant.get', tokens),
    leak('ListTasks', 'auth.tenant.list', tokens),
    leak('SendMessage', 'auth.tenant.lesson', tokens),
  ];
}
