// Invariant: what the engine keeps between calls belongs to one MatchingRuntime (no module-level state),
// and §14 erase can make it forget everything derived from a source that mentions an identifier:
// remembered analyses, cached and layered matchers, scratch buffers; other runtimes share nothing.
import { describe, expect, it } from 'vitest';
import { mail } from '../../../test/support/definitions.ts';
import { compileMatcher } from './compile-matcher.ts';
import { createMatcherCache } from './matcher-cache.ts';
import type { VersionMarks } from './layered-matcher.ts';
import type { Mark, Matcher } from './matcher.ts';
import { createMatchingRuntime } from './matching-runtime.ts';

interface GroupedMark extends Mark {
  readonly group: string;
}

/** A version as a test names it: an id and its groups of sources, in order. */
interface Version {
  readonly id: string;
  readonly groups: ReadonlyMap<string, readonly string[]>;
}

const version = (id: string, groups: Record<string, readonly string[]>): Version => ({
  id,
  groups: new Map(Object.entries(groups)),
});

const versions: VersionMarks<Version, GroupedMark> = {
  versionId: (v) => v.id,
  marks: (v, only) =>
    [...v.groups]
      .filter(([group]) => only === undefined || only.has(group))
      .flatMap(([group, sources]) =>
        sources.map((source) => ({ source, parts: ['from', 'body'] as const, group })),
      ),
  groups: (v) => v.groups.keys(),
  groupOf: (mark) => mark.group,
  changed: (from, to) =>
    [...new Set([...from.groups.keys(), ...to.groups.keys()])].filter(
      (g) => JSON.stringify(from.groups.get(g)) !== JSON.stringify(to.groups.get(g)),
    ),
};

const dana = (source: string): boolean => /dana@origin\\?\.example/i.test(source);

const message = mail({
  from: { address: 'dana@origin.example', name: '' },
  body: 'Pre-alert PA-2026-0901 for Norgate  Motors',
});
const found = (m: Matcher): string[] => m.match(message).map((h) => `${h.mark.source}|${h.part}|${h.text}`);

describe('MatchingRuntime (§14: forgetting what a source derived)', () => {
  it('forgets the remembered analysis of every source that mentions the identifier, and only those', () => {
    const runtime = createMatchingRuntime();
    const sources = ['dana@origin\\.example\\s*ops', 'PA-2026-\\d{4}', 'norgate\\s+motors'];
    for (const s of sources) runtime.analysedRegex(s);
    expect(runtime.analysesMade()).toBe(3);

    expect(runtime.forgetSourcesMentioning(dana)).toBe(1);
    expect(runtime.rememberedAnalysis(sources[0]!)).toBeUndefined();
    expect(runtime.rememberedAnalysis(sources[1]!)).toBeDefined();
    expect(runtime.rememberedAnalysis(sources[2]!)).toBeDefined();
    // A compile over the runtime analyses the forgotten one again, and nothing else.
    compileMatcher(
      sources.map((source) => ({ source, parts: ['body'] as const })),
      { runtime },
    );
    expect(runtime.analysesMade()).toBe(4);
  });

  it('drops every cached matcher, layered ones included, compiled from a mentioning source, and compiles it again from what is left', async () => {
    const runtime = createMatchingRuntime();
    let compiles = 0;
    const cache = createMatcherCache({
      maxVersions: 4,
      versions,
      runtime,
      compile: (marks: readonly GroupedMark[]) => {
        compiles++;
        return compileMatcher(marks, { runtime });
      },
    });
    const v1 = version('v1', { acme: ['PA-2026-\\d{4}'], origin: ['norgate\\s+motors'] });
    const v2 = version('v2', {
      acme: ['PA-2026-\\d{4}'],
      origin: ['norgate\\s+motors', 'dana@origin\\.example'],
    });
    const other = version('other', { gulf: ['norgate\\s+motors'] });
    cache.forVersion(v1);
    const before = found(cache.forVersion(v2)); // layered over v1
    cache.forVersion(other);
    expect(before).toContain('dana@origin\\.example|from|dana@origin.example');
    expect(cache.versions()).toEqual(['v1', 'v2', 'other']);

    runtime.forgetSourcesMentioning(dana);
    expect(cache.versions()).toEqual(['v1', 'other']);
    const made = compiles;
    expect(found(cache.forVersion(v2))).toEqual(before); // the same answer, compiled again
    expect(compiles).toBeGreaterThan(made);
    expect(found(await cache.matcherFor(v1))).toEqual(found(compileMatcher(versions.marks(v1))));
  });

  it('forgets everything on forgetEverything, and two runtimes share nothing', () => {
    const a = createMatchingRuntime();
    const b = createMatchingRuntime();
    const cache = createMatcherCache({ maxVersions: 2, versions, runtime: a });
    cache.forVersion(version('v1', { acme: ['PA-2026-\\d{4}'] }));
    expect(a.analysesMade()).toBe(1);
    expect(b.analysesMade()).toBe(0);
    expect(b.rememberedAnalysis('PA-2026-\\d{4}')).toBeUndefined();

    a.forgetEverything();
    expect(cache.versions()).toEqual([]);
    expect(a.rememberedAnalysis('PA-2026-\\d{4}')).toBeUndefined();
  });
});
