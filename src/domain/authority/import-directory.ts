/**
 * Importing a directory (collection -> entry -> lesson values, e.g. fixtures/directory/demo.json):
 * every value absorbed by its learnable exactly as a taught lesson would be, all of them in one
 * activation. Unlike a taught lesson, an import creates the entries it names.
 *
 * Owns: the import verb and the check of a directory's envelope. Does not own: judging a value (§9).
 */
import { DomainError } from '../errors.ts';
import { canonicalJson, isPlainObject } from '../json.ts';
import type { TenantId } from '../tenant.ts';
import type { EntryContent, Learnable, LessonValue } from '../learnables/index.ts';
import { buildVersion, type EntryChange } from '../definitions/index.ts';
import type { ActivationResult, DirectoryImport } from './authority.ts';
import { provenanceId } from './attribution.ts';
import type { AuthorityContext } from './authority-context.ts';
import { collectionUnknown, entryNameProblem } from './lesson-shape.ts';
import type { Principal } from './principal.ts';

export async function importDirectory(
  ctx: AuthorityContext,
  tenant: TenantId,
  principal: Principal,
  input: { directory: DirectoryImport; taughtBy: string; reason?: string },
): Promise<ActivationResult | null> {
  const { writes } = ctx;
  writes.authorize(principal, tenant, 'admin');
  const who = await writes.checkPerson(input.taughtBy, principal, tenant);
  const reason = writes.checkReason(input.reason);
  const lessons = checkDirectory(input.directory, ctx.learnables);
  const signed = await writes.sign(tenant, principal, who, reason);
  return writes.write(tenant, async (state) => {
    const { head, base, n } = state;
    const stamp = {
      activation: n + 1,
      taughtBy: provenanceId(signed.person, who, principal),
      at: ctx.options.clock.now(),
    };
    const working = new Map<string, Map<string, EntryContent>>();
    let learned = 0;
    for (const { learnable, collection, entry, value, index } of lessons) {
      let col = working.get(collection);
      if (col === undefined) working.set(collection, (col = new Map<string, EntryContent>()));
      const current = col.get(entry) ?? base.collections.get(collection)?.get(entry);
      // The same path as a taught lesson: the learnable judges and absorbs each value (§10.1).
      const absorbed = learnable.absorb(entry, current, value, stamp);
      if (absorbed.outcome === 'refused') {
        throw new DomainError(
          'IMPORT_MALFORMED',
          `Lesson ${index + 1} for ${collection} "${entry}" was refused: ${absorbed.reason}`,
          { details: { collection, entry, index } },
        );
      }
      if (absorbed.outcome === 'learned') {
        col.set(entry, absorbed.content);
        learned++;
      }
    }
    const changes: EntryChange[] = [];
    const counts: string[] = [];
    for (const [collection, col] of working) {
      for (const [entry, content] of col) changes.push({ collection, entry, content });
      if (col.size > 0) counts.push(`${col.size} in ${collection}`);
    }
    if (changes.length === 0) return { done: null };
    const built = await buildVersion(head?.versionId ?? null, changes, ctx.versions.readerFor(tenant));
    if (built.versionId === base.versionId) return { done: null };
    const r = await writes.commit(tenant, state, built, changes, signed, {
      action: 'import',
      describes: `imported ${learned} lesson${learned === 1 ? '' : 's'} into ${changes.length} ${changes.length === 1 ? 'entry' : 'entries'} (${counts.join(', ')})`,
      collection: null,
      entry: null,
      value: null,
      target: null,
      at: stamp.at,
    });
    return r === 'conflict' ? 'conflict' : { done: r };
  });
}

interface DirectoryLesson {
  readonly learnable: Learnable;
  readonly collection: string;
  readonly entry: string;
  readonly value: LessonValue;
  readonly index: number;
}

/** Check a directory's envelope (collection -> entry -> list of lesson values) before absorbing it. */
function checkDirectory(directory: DirectoryImport, learnables: readonly Learnable[]): DirectoryLesson[] {
  const malformed = (why: string) =>
    new DomainError('IMPORT_MALFORMED', `The directory cannot be imported: ${why}.`);
  if (!isPlainObject(directory) || !isPlainObject((directory as { collections?: unknown }).collections)) {
    throw malformed(
      'it must be an object {"collections": {"<collection>": {"<entry>": [<lesson value>, …]}}}',
    );
  }
  const out: DirectoryLesson[] = [];
  for (const [collection, entries] of Object.entries(directory.collections)) {
    const learnable = learnables.find((l) => l.collection === collection);
    if (learnable === undefined) throw collectionUnknown(collection, learnables);
    if (!isPlainObject(entries))
      throw malformed(`"${collection}" must map entry names to lists of lesson values`);
    for (const [entry, values] of Object.entries(entries)) {
      // The same names a taught lesson may use (issue 12.3: what is accepted round-trips everywhere).
      const problem = entryNameProblem(entry);
      if (problem !== null) throw malformed(`${collection}: ${problem}`);
      if (!Array.isArray(values)) throw malformed(`${collection} "${entry}" must be a list of lesson values`);
      values.forEach((value: unknown, index: number) => {
        if (!isPlainObject(value))
          throw malformed(`lesson ${index + 1} of ${collection} "${entry}" must be an object`);
        let plain: LessonValue;
        try {
          plain = JSON.parse(canonicalJson(value)) as LessonValue;
        } catch {
          throw malformed(`lesson ${index + 1} of ${collection} "${entry}" must be plain JSON`);
        }
        out.push({ learnable, collection, entry, value: plain, index });
      });
    }
  }
  return out;
}
