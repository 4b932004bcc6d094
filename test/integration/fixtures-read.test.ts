// Invariant: every realistic fixture reads as fixtures/mail/expected.json says under the demo directory (customer, kind, manifest fields), and every unsettled one says what it saw (§11).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DirectoryImport } from '../../src/domain/authority/index.ts';
import { createLearnables } from '../../src/domain/learnables/index.ts';
import {
  createMatcherCache,
  createTriageService,
  type TriageService,
} from '../../src/domain/triage/index.ts';
import { parseMail } from '../../src/ingest/mail/parse.ts';
import { SqliteCorpusStore } from '../../src/store/sqlite-corpus-store.ts';
import { openCore, type Core } from './knowledge-harness.ts';
import { customerOf, kindOf, manifestsOf } from '../support/readings.ts';

const MAIL = join(import.meta.dirname, '../../fixtures/mail');

interface Expected {
  readonly file: string;
  readonly customer: string | null;
  readonly kind: string | null;
  readonly manifestFields?: Readonly<Record<string, string | null>>;
}

const expected = JSON.parse(readFileSync(join(MAIL, 'expected.json'), 'utf8')) as Expected[];
const directory = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../fixtures/directory/demo.json'), 'utf8'),
) as DirectoryImport;

let core: Core;
let service: TriageService;

beforeAll(async () => {
  core = await openCore({ tenant: 'demo' });
  await core.authority.import(core.tenant, core.teacher, {
    directory,
    taughtBy: 'ops@warehouse.example',
    reason: 'demo directory',
  });
  service = createTriageService({
    definitions: core.authority,
    corpus: new SqliteCorpusStore(core.db),
    learnables: createLearnables(),
    settings: { identificationMargin: 0.5 },
    matcherCache: createMatcherCache({ maxVersions: 2 }),
    resolvePerson: (tenant, id) => core.store.personHandle(tenant, id),
  });
});
afterAll(async () => {
  await core.close();
});

describe('the fixtures read as expected (§11)', () => {
  it.each(expected.map((e) => [e.file, e] as const))('%s', async (_file, e) => {
    const message = await parseMail(readFileSync(join(MAIL, e.file)));
    const { reading, questions } = await service.triage(core.tenant, message);

    expect({ customer: customerOf(reading).settled ? customerOf(reading).winner : null }).toEqual({
      customer: e.customer,
    });
    expect({ kind: kindOf(reading).settled ? kindOf(reading).winner : null }).toEqual({ kind: e.kind });
    if (e.customer === null) {
      // Unsettled: it says what it saw, and asks.
      expect(customerOf(reading).reads).toMatch(/nothing matched|match, on /);
      expect(questions.some((q) => q.collection === 'customers')).toBe(true);
    } else {
      expect(customerOf(reading).reads).toMatch(/^Reads as /);
    }
    if (e.manifestFields !== undefined) {
      const found: Record<string, string | null> = {};
      for (const m of manifestsOf(reading)) {
        for (const f of m.fields)
          if (!(f.field in found) || found[f.field] === null)
            found[f.field] = f.settled ? (f.column ?? null) : null;
      }
      expect(found).toEqual(e.manifestFields);
    }
  });
});
