/**
 * The naive matcher: one re2 per mark, run on every part it names (§13.3). It is the oracle the
 * compiled matcher is tested and benchmarked against, and deliberately nothing more: its cost grows
 * linearly with the number of marks, so production code uses `compileMatcher`.
 */
import RE2 from 're2';
import { MAIL_PARTS } from '../mail/index.ts';
import type { MailMessage } from '../mail/index.ts';
import { partText, scannedParts } from '../mail/index.ts';
import type { Mark, MarkHit, Matcher } from './matcher.ts';

/** A matcher that runs every mark's own re2 on each part it names; hits in mark order, then part order. */
export function createNaiveMatcher<M extends Mark>(marks: readonly M[]): Matcher<M> {
  const compiled = marks.map((mark) => ({ mark, re: new RE2(mark.source, 'iu') }));
  return {
    markCount: marks.length,
    match(message: MailMessage): readonly MarkHit<M>[] {
      const texts = MAIL_PARTS.map((part) => partText(message, part));
      const hits: MarkHit<M>[] = [];
      for (const { mark, re } of compiled) {
        const parts = scannedParts(mark.parts); // a body mark is looked for in the quoted part too
        MAIL_PARTS.forEach((part, i) => {
          if (!parts.includes(part)) return;
          const m = re.exec(texts[i] as string);
          if (m !== null) hits.push({ mark, part, text: m[0] });
        });
      }
      return hits;
    },
  };
}
