/**
 * GET /readyz: whether this process can do its work now, each part by name. `/healthz` stays
 * liveness (the process serves HTTP); readiness asks every part the composition root registered:
 * the database answers, the active version's matcher is compiled for each tenant served, each
 * configured mailbox is connected (or why not), the remote authority is reachable. 200 when every
 * check passes, else 503; the body lists every check with what it found, in words.
 *
 * A check that takes longer than `timeoutMs` (default 2 s) fails as "did not answer within …".
 * Public like /healthz (load balancers carry no token): it names mailboxes and parts, never a
 * tenant's data; addresses in a reason are redacted.
 */
import express, { type Router } from 'express';
import { redactText } from '../domain/log-redaction.ts';

export const READY_PATH = '/readyz';

/** One part of readiness: null when ready, else why not (a sentence for an operator). */
export interface ReadinessCheck {
  readonly name: string;
  check(): Promise<string | null>;
}

export interface ReadinessResult {
  readonly ready: boolean;
  readonly checks: readonly { readonly name: string; readonly ready: boolean; readonly detail: string }[];
}

export async function evaluate(
  checks: readonly ReadinessCheck[],
  timeoutMs = 2000,
): Promise<ReadinessResult> {
  const results = await Promise.all(
    checks.map(async (c) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve(`did not answer within ${timeoutMs} ms`), timeoutMs);
      });
      try {
        const why = await Promise.race([c.check(), late]);
        return { name: c.name, ready: why === null, detail: why === null ? 'ok' : redactText(why) };
      } catch (e) {
        return { name: c.name, ready: false, detail: redactText(e instanceof Error ? e.message : String(e)) };
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return { ready: results.every((r) => r.ready), checks: results };
}

export function readinessRouter(checks: () => readonly ReadinessCheck[]): Router {
  const router = express.Router();
  router.get(READY_PATH, async (_req, res) => {
    const result = await evaluate(checks());
    res.setHeader('Cache-Control', 'no-store');
    res
      .status(result.ready ? 200 : 503)
      .json({ status: result.ready ? 'ready' : 'not ready', checks: result.checks });
  });
  return router;
}

/** The database answers a trivial query. */
export function databaseCheck(ping: () => Promise<unknown>): ReadinessCheck {
  return {
    name: 'database',
    async check() {
      try {
        await ping();
        return null;
      } catch (e) {
        return `the database did not answer: ${e instanceof Error ? e.message : String(e)}`;
      }
    },
  };
}

/**
 * The tenant's matcher is compiled: at start, the active version's; later, a new activation (a lesson,
 * a rollback) compiles in the background while the last one keeps serving, so it does not make the
 * process unready (a load balancer would drop it on every lesson). When the active version is not
 * compiled the check starts compiling it, as the tenant's first task would.
 */
export function matcherCheck(
  tenant: string,
  deps: {
    active(): Promise<{ readonly definitionVersion: number; readonly versionId: string }>;
    compiled(): readonly string[];
    compile(): Promise<unknown>;
  },
): ReadinessCheck & { warm(): void } {
  let compiling: Promise<unknown> | null = null;
  let failed: string | null = null;
  let everCompiled = false;
  return {
    name: `matcher:${tenant}`,
    /** Compiles the active version now, in the background (at start: the first task does not wait for it). */
    warm() {
      void this.check().catch(() => {});
    },
    async check() {
      const head = await deps.active();
      if (deps.compiled().includes(head.versionId)) {
        everCompiled = true;
        return null;
      }
      if (compiling === null) {
        failed = null;
        compiling = deps.compile().then(
          () => {
            compiling = null;
            everCompiled = true;
          },
          (e: unknown) => {
            compiling = null;
            failed = e instanceof Error ? e.message : String(e);
          },
        );
      }
      if (failed !== null) return `compiling version ${head.definitionVersion} failed: ${failed}`;
      return everCompiled ? null : `version ${head.definitionVersion} (the active one) is being compiled`;
    },
  };
}

/** A configured IMAP mailbox is connected, or why not. */
export function mailboxCheck(
  name: string,
  status: () => {
    readonly connected: boolean;
    readonly reconnects: number;
    readonly lastError: string | null;
    /** A standby replica (another holds the mailbox lease) is ready without a connection. */
    readonly role?: 'owner' | 'standby';
  },
): ReadinessCheck {
  return {
    name: `mailbox:${name}`,
    check() {
      const s = status();
      if (s.connected || s.role === 'standby') return Promise.resolve(null);
      return Promise.resolve(
        s.lastError === null
          ? 'not connected yet (connecting)'
          : `not connected: ${s.lastError} (retrying with backoff; ${s.reconnects} reconnect(s) so far)`,
      );
    },
  };
}

/** The remote authority (AUTHORITY_URL) answers. */
export function authorityCheck(reachable: () => Promise<string | null>): ReadinessCheck {
  return { name: 'authority', check: reachable };
}
