/**
 * Issue 26 (§13.1) in the split topology (§12.1): a lesson posted to the agent's
 * /authority/v1/lessons. The agent holds the corpus of the mail it read and the authority holds the
 * versions, so the check that a lesson re-files no message already read runs here: the caller's
 * token is checked with the authority first (its tenant, the teach role), then the lesson is tried
 * on this agent's corpus under the version active now (triage's checkLessonAtAgent), and only a
 * lesson that passes is forwarded, with the caller's own token, to the authority, which absorbs it
 * and answers. A lesson posted to the authority directly is checked only against a corpus the
 * authority itself holds (none, in a split deployment with its own data): post lessons to the agent.
 *
 * Another lesson absorbed between the check and the forward is not re-checked (a narrow race,
 * said in docs/learning.md). Does not own: the check (the domain) or absorbing (the authority).
 */
import { callerBearer } from './remote-errors.ts';
import type { LessonResult } from '../domain/authority/index.ts';
import type { TenantId } from '../domain/tenant.ts';
import type { RemoteDefinitionSource } from './remote-authority.ts';

/** The agent-side lesson: the caller's Authorization header and the request body. */
export type ForwardedLesson = (authorization: string | undefined, body: unknown) => Promise<unknown>;

export function createForwardedLesson(deps: {
  readonly remote: Pick<RemoteDefinitionSource, 'teach' | 'tenant'>;
  /** Throws the learnable's refusal when the lesson would re-file mail already read; else the counts. */
  readonly check: (tenant: TenantId, body: unknown) => Promise<LessonResult['alreadyRead']>;
}): ForwardedLesson {
  return async (authorization, body) => {
    const bearer = callerBearer(
      authorization,
      "A lesson needs a token that may teach: send Authorization: Bearer <token> (the authority's token, which this agent passes on).",
    );
    return deps.remote.teach(bearer, body, () => deps.check(deps.remote.tenant, body));
  };
}
