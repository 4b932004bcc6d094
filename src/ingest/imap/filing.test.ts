// Invariant (issue 40): a folder is named from a label safely: no separator, IMAP wildcard or control character of the label makes another level or a pattern, and a task that is neither asking nor decided is not filed.
import { describe, expect, it } from 'vitest';
import { folderFor, keywordFor, safeFolderName } from './filing.ts';

const config = { template: 'Customers/{customer}', questionsFolder: 'Questions', mode: 'folders' as const };

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

  it('makes an IMAP keyword of a place: one ASCII atom, accents dropped, specials and spaces as "_"', () => {
    expect(keywordFor('Customers/Kessler Feinkost GmbH')).toBe('$Customers/Kessler_Feinkost_GmbH');
    expect(keywordFor('Customers/Müller-Özkan (Köln) 100%*"\\]{')).toBe(
      '$Customers/Muller-Ozkan__Koln__100______',
    );
    expect(keywordFor('Customers/倉庫')).toBe('$Customers/__');
    expect(keywordFor('Questions')).toBe('$Questions');
  });
});
