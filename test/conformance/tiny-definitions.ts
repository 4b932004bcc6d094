/**
 * The tiny agent's definitions (tiny-agent.ts): one tenant's cost centres, each with the vendors it
 * is taught, as immutable versions numbered 1, 2, … (§10.3). It gives no `versionId` or
 * `previousVersionId` (both optional, §10.4), so the kit must know versions by `definitionVersion`
 * alone. Lessons come by the Teach method (§12.2); the history and the rollback by two JSON-RPC
 * methods of its own. Refusals are in words (§10.1); a lesson without taughtBy is refused (§9).
 */
import type { Wire } from '../support/calls.ts';

export const COLLECTION = 'cost-centres';

/** One immutable version, with the activation that made it (§10.3: attributed). */
interface Version {
  readonly definitionVersion: number;
  readonly centres: ReadonlyMap<string, readonly string[]>;
  readonly taughtBy: string;
  readonly reason?: string | undefined;
  readonly action: 'created' | 'lesson' | 'rollback';
}

/** What a method answers: its result, or a refusal in words. */
export type Outcome = { readonly result: Wire } | { readonly error: string };

const key = (vendor: string): string => vendor.trim().toLowerCase();

export class Definitions {
  private readonly versions: Version[];

  constructor(centres: ReadonlyMap<string, readonly string[]>) {
    this.versions = [
      { definitionVersion: 1, centres, taughtBy: 'setup@accounts.example', action: 'created' },
    ];
  }

  get active(): Version {
    return this.versions.at(-1)!;
  }

  /** The version a task was pinned to. */
  at(definitionVersion: number): Version | undefined {
    return this.versions.find((v) => v.definitionVersion === definitionVersion);
  }

  /** What a version makes of a vendor: the cost centre, or null. */
  static read(v: Version, vendor: string): string | null {
    for (const [centre, vendors] of v.centres) if (vendors.some((x) => key(x) === key(vendor))) return centre;
    return null;
  }

  /** The Teach method (§12.2): idempotent (§10.2), a new version for a change (§10.3), the result of §10.4. */
  teach(lesson: Wire): Outcome {
    const who = person(lesson?.taughtBy);
    if (who === null)
      return { error: 'Say who teaches this: "taughtBy" names the person, e.g. sam@accounts.example.' };
    if (lesson?.collection !== COLLECTION)
      return { error: `I only learn "${COLLECTION}", not ${JSON.stringify(lesson?.collection)}.` };
    const active = this.active;
    const vendors = active.centres.get(String(lesson.entry));
    if (vendors === undefined)
      return {
        error: `There is no cost centre "${String(lesson.entry)}": teach one of ${[...active.centres.keys()].join(', ')}.`,
      };
    const vendor: unknown = lesson.value?.vendor;
    if (typeof vendor !== 'string' || vendor.trim().length < 2)
      return {
        error: `"${String(vendor)}" is not a vendor: write the vendor's name as the receipt shows it, two letters at least.`,
      };
    const describes = `files expenses from ${vendor.trim()} under ${String(lesson.entry)}`;
    if (vendors.some((v) => key(v) === key(vendor)))
      return { result: { learned: false, describes, definitionVersion: active.definitionVersion } };
    const centres = new Map(active.centres);
    centres.set(String(lesson.entry), [...vendors, vendor.trim()]);
    const reason = typeof lesson.reason === 'string' ? lesson.reason : undefined;
    const next = this.push(centres, who, reason, 'lesson');
    return { result: { learned: true, describes, definitionVersion: next.definitionVersion } };
  }

  /** The activation history, newest first. */
  history(): Wire[] {
    return this.versions
      .map((v) => ({
        definitionVersion: v.definitionVersion,
        action: v.action,
        taughtBy: v.taughtBy,
        reason: v.reason,
      }))
      .reverse();
  }

  /** Undo (§10.3): the content of an earlier version, active again as a new version. */
  rollback(params: Wire): Outcome {
    const who = person(params?.taughtBy);
    if (who === null) return { error: 'Say who rolls back: "taughtBy" names the person.' };
    const target = Number.isInteger(params?.to) ? this.at(params.to as number) : undefined;
    if (target === undefined)
      return {
        error: `There is no definitionVersion ${JSON.stringify(params?.to)}: give one from the history, 1 to ${this.active.definitionVersion}.`,
      };
    const reason = typeof params.reason === 'string' ? params.reason : undefined;
    return {
      result: { definitionVersion: this.push(target.centres, who, reason, 'rollback').definitionVersion },
    };
  }

  private push(
    centres: ReadonlyMap<string, readonly string[]>,
    taughtBy: string,
    reason: string | undefined,
    action: Version['action'],
  ): Version {
    const next = { definitionVersion: this.active.definitionVersion + 1, centres, taughtBy, reason, action };
    this.versions.push(next);
    return next;
  }
}

/** A person's name or address, as §9 wants taughtBy; null when there is none. */
function person(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}
