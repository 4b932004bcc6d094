// Issue 30: the kit validates against the extension's published JSON Schema (Appendix A): its copy
// is the spec's, byte for byte, and the validator refuses what the schema refuses.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { schemaProblems } from '../../conformance/src/schema.ts';

describe("the kit's schema", () => {
  it('is the published extension.json', () => {
    expect(readFileSync('conformance/schema/extension.json', 'utf8')).toBe(
      readFileSync('/work/shared/spec/extension.json', 'utf8'),
    );
  });

  it('passes the objects of the spec (§6.1, §8, §10.4) and names what is missing from broken ones', () => {
    const field = { name: 'pattern', label: 'Text that gives it away', kind: 'text' };
    const learnable = {
      collection: 'customers',
      entry: 'customer',
      teaches: 'who',
      how: 'Marks.',
      decidedBy: 'rules',
      lessonFields: [field],
    };
    expect(schemaProblems('params', { learnables: [learnable] })).toBeNull();
    expect(schemaProblems('params', { learnables: [{ ...learnable, how: undefined }] })).toMatch(
      /must have required property 'how'/,
    );
    expect(schemaProblems('TeachBlock', { collection: 'customers', entries: [] })).toBeNull();
    expect(schemaProblems('TeachBlock', { collection: 'customers' })).toMatch(
      /must have required property 'entries'/,
    );
    expect(
      schemaProblems('LessonResult', { learned: true, describes: 'x', definitionVersion: 2 }),
    ).toBeNull();
    expect(schemaProblems('LessonResult', { learned: true, definitionVersion: 2.5 })).toMatch(
      /describes.*|integer/,
    );
  });
});
