/**
 * Wide marks: a customer mark that matches more than the one text it was drawn from, a
 * reference family (`NGM-\d{4}-\d{4}`) or a sender's domain (`@northgatemotors\.example`), and the
 * rule that such a mark does not outvote narrow evidence (§13.1): when every mark the leader matched
 * is wide and another customer matched a narrow one (an address, a whole reference, a name), or the
 * new text names another customer in full, the reading asks, naming both.
 *
 * Owns: telling a wide mark from a narrow one, and that objection's sentence. Does not own: the
 * other objections (objections.ts) or scoring (../read-marked.ts).
 */
import { TOKEN_HEADS, TOKEN_TAILS } from '../literal-pattern.ts';
import type { MarkEvidence } from '../read-marked.ts';

/** Sentence in `how` (customers.ts) for this rule, true to it (§6.2). */
export const WIDE_MARK_HOW =
  "A reading that rests only on wide marks (a reference family, a sender's domain) does not settle when another customer matches a narrower mark " +
  '(an address, a whole reference, a name) or the new text names another customer, in full or without its legal form.';

/**
 * A source without the head and tail literal-pattern.ts put around a literal, which widen nothing
 * (its own list of them: one source).
 */
function withoutAnchors(source: string): string {
  const head =
    TOKEN_HEADS.find((h) => h !== '' && source.startsWith(h)) ?? TYPED_HEAD.exec(source)?.[0] ?? '';
  const rest = source.slice(head.length);
  const tail =
    TOKEN_TAILS.find((t) => t !== '' && rest.endsWith(t) && rest.length > t.length) ??
    TYPED_TAIL.exec(rest)?.[0] ??
    '';
  return rest.slice(0, rest.length - tail.length);
}

/**
 * The bounds a person types around an address, `(?:^|[^a-z0-9._%+-])` and
 * `(?:$|[^a-z0-9.-])`: a start or end, or one character of a negated class. They match nothing of
 * the address itself, so `(?:^|[^a-z0-9._%+-])dana@origin\.example(?:$|[^a-z0-9.-])` is one address,
 * not a family (it was judged by its domain's record).
 */
const TYPED_HEAD = /^\(\?:\^\|\[\^[^\]]*\]\)/;
const TYPED_TAIL = /\(\?:\$\|\[\^[^\]]*\]\)$/;

/** Whether a taught mark can match more than one text: a family (any class or quantifier) or a domain. */
export function isWideMark(mark: Pick<MarkEvidence, 'mark' | 'where'>): boolean {
  const core = withoutAnchors(mark.mark);
  if (mark.where === 'from' && core.startsWith('@')) return true;
  // What is left of a literal is escaped characters and plain ones; anything else generalises.
  const unescaped = core.replace(/\\[^dDwWsSpPbB]/g, '');
  return /[[\](){}*+?|.^$]|\\[dDwWsSpP]/.test(unescaped);
}

/** "the reference family NGM-\d{4}-\d{4}" words for the leader's wide marks. */
export function wideWords(evidence: readonly MarkEvidence[]): string {
  const domains = evidence.some((e) => e.where === 'from');
  const families = evidence.some((e) => e.where !== 'from');
  return families && domains
    ? 'a reference family and a domain'
    : domains
      ? "the sender's domain"
      : 'a reference family';
}
