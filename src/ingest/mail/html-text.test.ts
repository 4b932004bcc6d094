// HTML becomes readable text in time linear in its size: ordinary mail through html-to-text, deep nesting through a linear stripper.
import { describe, expect, it } from 'vitest';
import { htmlToText, nestsDeeperThan, stripTags } from './html-text.ts';

describe('htmlToText', () => {
  it('keeps table cells apart and does not wrap long lines', () => {
    const long = 'Al Hamra Trading '.repeat(12).trim();
    const text = htmlToText(
      `<p>${long}</p><table><tr><th>AWB</th><th>Pieces</th></tr><tr><td>176-1</td><td>3</td></tr></table>`,
      10_000,
    );
    expect(text).toContain(long);
    expect(text).toMatch(/AWB\s+Pieces\n176-1\s+3/);
  });

  it('drops images and link targets', () => {
    expect(htmlToText('<a href="https://x.example/track">Track</a><img src="cid:logo">', 1000)).toBe('Track');
  });

  it('falls back to the linear stripper past the nesting limit', () => {
    const deep = '<div>'.repeat(5000) + 'deep &amp; text' + '</div>'.repeat(5000);
    expect(nestsDeeperThan(deep, 400)).toBe(true);
    expect(htmlToText(`<p>top</p>${deep}`, 1_000_000)).toBe('top\n\ndeep & text');
  });

  it('does not count elements whose end tag may be left out', () => {
    expect(nestsDeeperThan('<p>x'.repeat(5000) + '<br>'.repeat(5000), 400)).toBe(false);
  });
});

describe('stripTags', () => {
  it('turns blocks into lines, cells into tabs and decodes entities', () => {
    expect(
      stripTags(
        '<style>p{}</style><div>A&nbsp;B</div><table><tr><td>x</td><td>&#233;&#x20AC;</td></tr></table>',
      ),
    ).toBe('A B\n\nx é€');
  });
});
