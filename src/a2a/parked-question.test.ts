// Invariant (issues 49, §10.3): an answer to a parked question is taken as the answer to the question asked, even when the pinned re-read no longer asks it because a mark's live track record recovered since the task parked; a question of another version is never borrowed.
import { describe, expect, it } from 'vitest';
import { withParkedQuestion } from './executor.ts';
import type { TriageOutcome, TriageQuestion } from './ports.ts';

const question = (collection: string): TriageQuestion =>
  ({
    collection,
    text: `which ${collection}?`,
    teach: {},
    choices: [{ name: 'a', label: 'A' }],
  }) as unknown as TriageQuestion;
const outcome = (versionId: string, questions: TriageQuestion[]): TriageOutcome =>
  ({
    pin: { definitionVersion: 2, versionId },
    reading: {},
    questions,
    key: 'k',
  }) as unknown as TriageOutcome;

describe('the question a parked task is answering', () => {
  it('is borrowed from the parked reading when the re-read on the same version no longer asks it', () => {
    const now = outcome('v2', []);
    const parked = outcome('v2', [question('kinds')]);
    expect(withParkedQuestion(now, parked, 'kinds', 'v2').questions.map((q) => q.collection)).toEqual([
      'kinds',
    ]);
  });

  it('is the re-read one when the re-read still asks it', () => {
    const asked = question('kinds');
    const now = outcome('v2', [asked]);
    expect(withParkedQuestion(now, outcome('v2', [question('kinds')]), 'kinds', 'v2').questions[0]).toBe(
      asked,
    );
  });

  it('is never taken from a reading of another version, or when nothing was kept', () => {
    const now = outcome('v2', []);
    expect(withParkedQuestion(now, outcome('v1', [question('kinds')]), 'kinds', 'v2').questions).toEqual([]);
    expect(withParkedQuestion(now, null, 'kinds', 'v2').questions).toEqual([]);
  });
});
