// Invariant (issue 40): a folder is named from a label safely: no separator, IMAP wildcard or control character of the label makes another level or a pattern, and a task that is neither asking nor decided is not filed.
import { describe, expect, it } from 'vitest';
import { folderFor, safeFolderName } from './filing.ts';

const config = { template: 'Customers/{customer}', questionsFolder: 'Questions' };

describe('filing by label', () => {
  it('writes the template in the server separator, one level per label', () => {
    const filing = { state: 'completed' as const, filedAs: new Map([['customer', 'Kessler A/S. Feinkost']]) };
    expect(folderFor(config, filing, '/')).toBe('Customers/Kessler A-S. Feinkost');
    expect(folderFor(config, filing, '.')).toBe('Customers.Kessler A-S- Feinkost');
  });

  it.each([
    ['*%\u0000x', '---x'],
    ['  ..  ', 'Unsorted'],
    ['x'.repeat(300), 'x'.repeat(100)],
  ])('makes %j safe', (label, expected) => {
    expect(safeFolderName(label, '/')).toBe(expected);
  });

  it('files a question in the questions folder, and nothing while it works or after it failed', () => {
    expect(folderFor(config, { state: 'input-required', filedAs: new Map() }, '/')).toBe('Questions');
    expect(folderFor(config, { state: 'working', filedAs: new Map() }, '/')).toBeNull();
    expect(folderFor(config, { state: 'failed', filedAs: new Map() }, '/')).toBeNull();
    expect(folderFor(config, { state: 'completed', filedAs: new Map() }, '/')).toBe('Customers/Unsorted');
  });
});
