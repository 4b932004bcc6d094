/**
 * Teaching (§9, §10): one lesson absorbed into a new content-addressed version through the
 * learnable that owns its collection, or refused with the learnable's own reason.
 *
 * Owns: the teach verb, and its rule that a lesson never creates an entry by accident (issue 12.3).
 * Does not own: judging the value (the learnable does, §9) or the commit (writes.ts).
 */
import { DomainError } from '../errors.ts';
import type { TenantId } from '../tenant.ts';
import { buildVersion } from '../definitions/index.ts';
import { provenanceId } from './attribution.ts';
import type { AuthorityContext } from './authority-context.ts';
import type { Lesson, LessonResult } from './lesson.ts';
import { checkLesson } from './lesson-shape.ts';
import { refileVerdict } from './refile-verdict.ts';
import type { Principal } from './principal.ts';
import { createsEntryHere, entryUnknown } from './unknown-entry.ts';

export async function absorb(
  ctx: AuthorityContext,
  tenant: TenantId,
  principal: Principal,
  lesson: Lesson,
): Promise<LessonResult> {
  const { writes, versions } = ctx;
  writes.authorize(principal, tenant, 'teach');
  const checked = checkLesson(lesson, ctx.learnables);
  const who = await writes.checkPerson(checked.taughtBy, principal, tenant);
  const signed = await writes.sign(tenant, principal, who, checked.reason);
  const { learnable, collection, entry, value } = checked;
  return writes.write(tenant, async (state) => {
    const { head, base, n } = state;
    const current = base.collections.get(collection)?.get(entry);
    // Issue 12.3: no entry by accident. A lesson for an entry nobody has creates one only if it
    // asks to, the way its learnable declares; the learnable judges the value, not the authority (§9).
    const creates = current === undefined;
    if (creates && !createsEntryHere(learnable, value)) {
      throw entryUnknown(learnable, entry, base.collections.get(collection));
    }
    const stamp = {
      activation: n + 1,
      taughtBy: provenanceId(signed.person, who, principal),
      at: ctx.options.clock.now(),
    };
    const absorbed = learnable.absorb(entry, current, value, stamp);
    if (absorbed.outcome === 'refused') {
      // §10.1: the learnable's reason, unchanged.
      throw new DomainError('LESSON_REFUSED', absorbed.reason, { details: { collection, entry } });
    }
    // §13.1: tried on the mail already read before it is absorbed.
    const alreadyRead =
      absorbed.outcome === 'learned'
        ? await ctx.options.checkLesson?.(tenant, {
            learnable,
            entry,
            content: absorbed.content,
            base,
            activation: stamp.activation,
          })
        : undefined;
    const counted =
      alreadyRead === undefined
        ? {}
        : { alreadyRead: refileVerdict(learnable, entry, current, value, alreadyRead) };
    const unchanged = (describes: string): { done: LessonResult } => ({
      done: { learned: false, describes, definitionVersion: n, versionId: base.versionId, ...counted },
    });
    // §10.2: a lesson that adds nothing is not an error and makes no version.
    if (absorbed.outcome === 'unchanged') return unchanged(absorbed.describes);
    // The learnable's words, and that they made a new entry.
    const describes = creates
      ? `new ${learnable.entryNoun} "${entry}": ${absorbed.describes}`
      : absorbed.describes;
    const changes = [{ collection, entry, content: absorbed.content }];
    const built = await buildVersion(head?.versionId ?? null, changes, versions.readerFor(tenant));
    if (built.versionId === base.versionId) return unchanged(absorbed.describes);
    const r = await writes.commit(tenant, state, built, changes, signed, {
      action: 'teach',
      describes,
      collection,
      entry,
      value,
      target: null,
      at: stamp.at,
    });
    if (r === 'conflict') return 'conflict';
    return {
      done: {
        learned: true,
        describes: r.describes,
        definitionVersion: r.definitionVersion,
        versionId: r.versionId,
        ...(r.previousVersionId === null ? {} : { previousVersionId: r.previousVersionId }),
        ...counted,
      },
    };
  });
}
