// Invariant: a version's matcher is compiled once, on first use, and the cache stays within its bound (§13.3).
import { describe, expect, it } from 'vitest';
import { buildDefinition, mail } from '../../../test/support/definitions.ts';
import { createLearnables } from '../learnables/index.ts';
import { compileMatcher, createMatchingRuntime, type AnalysisKeeping } from '../matching/index.ts';
import { createMatcherCache, definitionMarks, type IndexedMark, type Matcher } from './definition-marks.ts';

const provenance = { activation: 1, taughtBy: 'p1', at: '2026-01-01T00:00:00.000Z' };
const marks = (source: string): IndexedMark[] => [
  {
    collection: 'customers',
    entry: 'x',
    source,
    parts: ['subject'],
    mark: source,
    where: 'subject',
    provenance,
  },
];

describe('createMatcherCache (§13.3)', () => {
  it('compiles a version once and never compiles a version that is not used', () => {
    const compiled: number[] = [];
    const cache = createMatcherCache({
      maxVersions: 2,
      compile: (m): Matcher => {
        compiled.push(m.length);
        return compileMatcher(m);
      },
    });
    let loads = 0;
    const load = (): IndexedMark[] => {
      loads++;
      return marks('northgate');
    };
    const a = cache.get('v1', load);
    expect(cache.get('v1', load)).toBe(a);
    expect(loads).toBe(1);
    expect(compiled).toEqual([1]);
    expect(cache.versions()).toEqual(['v1']);
  });

  it('evicts the least recently used version beyond maxVersions', () => {
    let compiles = 0;
    const cache = createMatcherCache({
      maxVersions: 2,
      compile: (m) => {
        compiles++;
        return compileMatcher(m);
      },
    });
    cache.get('v1', () => marks('a1234'));
    cache.get('v2', () => marks('b1234'));
    cache.get('v1', () => marks('a1234'));
    cache.get('v3', () => marks('c1234'));
    expect(cache.versions()).toEqual(['v1', 'v3']);
    cache.get('v2', () => marks('b1234'));
    expect(compiles).toBe(4);
  });

  it('matches with the version it was asked for', () => {
    const cache = createMatcherCache({ maxVersions: 4 });
    const m = cache.get('v1', () => marks('gulftrade'));
    expect(m.markCount).toBe(1);
  });

  it('refuses a bound below one', () => {
    expect(() => createMatcherCache({ maxVersions: 0 })).toThrow(/maxVersions/);
  });

  it('prepares a version off the event loop: forDefinition then finds it, and later versions layer over it', async () => {
    const learnables = createLearnables();
    let asyncCompiles = 0;
    let syncCompiles = 0;
    const cache = createMatcherCache({
      maxVersions: 4,
      compile: (m) => {
        syncCompiles++;
        return compileMatcher(m);
      },
      compileAsync: async (m) => {
        asyncCompiles++;
        await Promise.resolve();
        return compileMatcher(m);
      },
    });
    const lessons = [
      { collection: 'customers', entry: 'northgate', value: { label: 'Northgate Motors Ltd' } },
      {
        collection: 'customers',
        entry: 'northgate',
        value: { pattern: 'billing@origin\\.example', where: 'from' },
      },
    ];
    const v1 = buildDefinition(lessons, { versionId: 'sha256:p1' });
    const prepared = await cache.prepare(v1, learnables);
    expect(cache.forDefinition(v1, learnables)).toBe(prepared);
    expect(await cache.prepare(v1, learnables)).toBe(prepared);
    expect([asyncCompiles, syncCompiles]).toEqual([1, 0]);
    const message = mail({ from: { address: 'billing@origin.example', name: '' } });
    expect(prepared.match(message).map((h) => h.mark.entry)).toEqual(['northgate']);
    // The next version layers over the prepared one: only the changed entry is compiled.
    const v2 = buildDefinition(
      [...lessons, { collection: 'customers', entry: 'gulftrade', value: { label: 'Gulftrade' } }],
      { versionId: 'sha256:p2' },
    );
    const next = cache.forDefinition(v2, learnables);
    expect(syncCompiles).toBe(1);
    const full = compileMatcher(definitionMarks(v2, learnables));
    expect(next.match(message).map((h) => h.text)).toEqual(full.match(message).map((h) => h.text));
  });

  it('matcherFor: the first version and a large change compile in slices (once, however many ask at once); a small change layers', async () => {
    const learnables = createLearnables();
    const counts = { sync: 0, async: 0 };
    const cache = createMatcherCache({
      maxVersions: 4,
      maxLayeredEntries: 2,
      compile: (m) => {
        counts.sync++;
        return compileMatcher(m);
      },
      compileAsync: async (m) => {
        counts.async++;
        await new Promise((r) => setTimeout(r, 5));
        return compileMatcher(m);
      },
    });
    const customer = (entry: string, address: string) => [
      { collection: 'customers', entry, value: { label: entry } },
      { collection: 'customers', entry, value: { pattern: address.replace(/\./g, '\\.'), where: 'from' } },
    ];
    const v1Lessons = customer('northgate', 'billing@origin.example');
    const v1 = buildDefinition(v1Lessons, { versionId: 'sha256:m1' });
    const [a, b] = await Promise.all([cache.matcherFor(v1, learnables), cache.matcherFor(v1, learnables)]);
    expect(a).toBe(b);
    expect(counts).toEqual({ sync: 0, async: 1 });

    // One changed entry: a small layer, compiled at once.
    const v2Lessons = [...v1Lessons, ...customer('gulftrade', 'ops@gulf.example')];
    const v2 = buildDefinition(v2Lessons, { versionId: 'sha256:m2' });
    const layered = await cache.matcherFor(v2, learnables);
    expect(counts).toEqual({ sync: 1, async: 1 });
    const gulf = mail({ from: { address: 'ops@gulf.example', name: '' } });
    expect(layered.match(gulf).map((h) => h.mark.entry)).toEqual(['gulftrade']);

    // Three more changed entries (over the bound of 2): one full compile in slices, no wasted overlay.
    const v3 = buildDefinition(
      [
        ...v2Lessons,
        ...customer('alhamra', 'desk@alhamra.example'),
        ...customer('tergulf', 'ops@tergulf.example'),
        ...customer('velthra', 'ops@velthra.example'),
      ],
      { versionId: 'sha256:m3' },
    );
    const full = await cache.matcherFor(v3, learnables);
    expect(counts).toEqual({ sync: 1, async: 2 });
    expect(full.match(gulf).map((h) => h.mark.entry)).toEqual(['gulftrade']);
    expect(await cache.matcherFor(v3, learnables)).toBe(full);
  });

  it('matcherFor keeps what a full compile analysed; a later process compiles from it, analysing nothing (issue 3)', async () => {
    const learnables = createLearnables();
    const regex = ['ops@(?:eu\\.)?gulf\\.example', 'norgate\\s+motors', 'PA-2026-\\d{4}'];
    const v1 = buildDefinition(
      [
        { collection: 'customers', entry: 'gulftrade', value: { label: 'Gulftrade' } },
        { collection: 'customers', entry: 'gulftrade', value: { pattern: regex[0], where: 'from' } },
        { collection: 'customers', entry: 'northgate', value: { label: 'Northgate' } },
        { collection: 'customers', entry: 'northgate', value: { pattern: regex[1], where: 'any' } },
        { collection: 'customers', entry: 'northgate', value: { pattern: regex[2], where: 'subject' } },
        {
          collection: 'customers',
          entry: 'northgate',
          value: { pattern: 'billing@origin\\.example', where: 'from' },
        },
      ],
      { versionId: 'sha256:k1' },
    );
    const kept = new Map<string, string>();
    const saves: string[][] = [];
    const keeping: AnalysisKeeping = {
      load: () => Promise.resolve(new Map(kept)),
      save: (made) => {
        saves.push([...made.keys()].sort());
        for (const [source, text] of made) kept.set(source, text);
        return Promise.resolve();
      },
    };
    const message = mail({
      from: { address: 'ops@eu.gulf.example', name: '' },
      subject: 'PA-2026-0901 for Norgate  Motors',
    });
    const found = (m: Matcher): string[] => m.match(message).map((h) => `${h.mark.source} ${h.text}`);

    // A fresh runtime: a fresh process.
    const first = await createMatcherCache({ maxVersions: 2, runtime: createMatchingRuntime() }).matcherFor(
      v1,
      learnables,
      keeping,
    );
    // Only regex marks are analysed (a plain literal is read from its text).
    expect(saves).toEqual([[...regex].sort()]);

    // A fresh runtime: a restart.
    const again = await createMatcherCache({ maxVersions: 2, runtime: createMatchingRuntime() }).matcherFor(
      v1,
      learnables,
      keeping,
    );
    expect(saves).toHaveLength(1);
    expect(found(again)).toEqual(found(first));
    expect(found(first)).toHaveLength(3);

    // A store that cannot be read costs the analyses, not the answer.
    const broken: AnalysisKeeping = {
      load: () => Promise.reject(new Error('disk I/O error')),
      save: () => Promise.reject(new Error('disk I/O error')),
    };
    const fresh = createMatcherCache({ maxVersions: 2, runtime: createMatchingRuntime() });
    expect(found(await fresh.matcherFor(v1, learnables, broken))).toEqual(found(first));
  });
});
