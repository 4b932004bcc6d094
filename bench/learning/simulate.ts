/**
 * One run of the learning curve: the seeded stream played against a fresh real server, with an
 * operator who answers every question truthfully on the same task and, in the taught modes, turns
 * each answer into a lesson (the agent's suggestion when one is offered, else the narrowest mark
 * that identifies the message). Everything goes through the public interfaces (harness.ts).
 *
 * Modes: `taught` posts each lesson at once; `redeploy-weekly` collects the week's lessons and posts
 * them at the end of the week; `discard` never teaches (the answers are thrown away); `careful` is
 * issue 14's careful person: she never accepts a suggestion and types the narrowest mark she sees,
 * at once. In the taught modes the operator declines a suggestion whose label says it was read as
 * another customer than the one she answers (she reads the label; forEntry orders the choices).
 */
import {
  AgentClient,
  AuthorityClient,
  reportOf,
  startChild,
  stateOf,
  statusText,
  teachBlockOf,
  type TeachBlockWire,
} from './harness.ts';
import { createRandom, KINDS, type StreamMessage, type World } from './world.ts';

export type Mode = 'taught' | 'redeploy-weekly' | 'discard' | 'careful';

export interface WeekStats {
  week: number;
  messages: number;
  questions: number;
  customerQuestions: number;
  kindQuestions: number;
  questionsPer100: number;
  lessonsTaught: number;
  lessonsRefused: number;
  /** Lessons the authority already knew (the same lesson posted twice in a redeploy week). */
  lessonsAlreadyKnown: number;
  suggestionsAccepted: number;
  /** Tasks that completed with the customer settled by rules naming the wrong customer. */
  misroutes: number;
  /** The same for the kind. */
  kindMisreads: number;
  /** Tasks whose kind was decided by the rules (kind accuracy is 1 - misreads / this). */
  kindByRules: number;
  /** Percent of kinds decided by the rules that were right. */
  kindAccuracy: number;
  /** Suggestions accepted, by type (family, domain, address, name, client, reference, cue). */
  acceptedByType: Record<string, number>;
  /**
   * Issue 28: messages the rules settled this week, by the type of lesson whose activation decided
   * the customer (a suggestion's type, or 'typed'): what each type of suggestion saved in questions.
   */
  settledByType: Record<string, number>;
  /** Suggestions the operator did not confirm (she typed her own mark instead: OPERATOR_CONFIRMS). */
  suggestionsDeclined: number;
  /** Show-back after a lesson that did not read the message as the entry just taught. */
  showBackMisses: number;
  /** Questions where the agent would not take the true entry as the answer (the task stays parked). */
  answersNotTaken: number;
}

export interface QuestionRecord {
  week: number;
  seq: number;
  collection: string;
  role: string;
  sender: string;
  /** The message's subject (issue 39: what a kind cue is drawn from). */
  subject: string;
  /** Why it asked, in the operator's terms (new sender, lesson refused before, ...). */
  cause: string;
  /** What the agent said it saw. */
  reads: string;
  suggested: boolean;
  /** The suggestion's label in the agent's words, when one was offered. */
  suggestion?: string;
  /**
   * Issue 39: for a question asked before on the same grounds (customers: the same sender and
   * customer; kinds: the same customer and kind), why: what the agent says now, and what the
   * earlier answer taught.
   */
  repeat?: string;
}

export interface Refusal {
  week: number;
  collection: string;
  entry: string;
  typed: string;
  suggested: boolean;
  reason: string;
}

export interface RunResult {
  mode: Mode;
  weeks: WeekStats[];
  questions: QuestionRecord[];
  refusals: Refusal[];
  misroutes: {
    week: number;
    seq: number;
    truth: string;
    read: string;
    reads: string;
    sender: string;
    /** Issue 14's phenomena the message carried, or "plain". */
    cause: string;
  }[];
  answersNotTaken: { week: number; seq: number; collection: string; entry: string; said: string }[];
  /** Kinds settled by the rules on the wrong kind (issue 14: kind accuracy by cause). */
  kindMisreads: KindMisread[];
  /** Issue 14: how each message whose reference is only in a PDF or XLSX was read. */
  attachmentReads: AttachmentRead[];
  seconds: number;
}

export interface KindMisread {
  week: number;
  seq: number;
  truth: string;
  read: string;
  reads: string;
  subject: string;
  /** The message's shape for kinds: fresh subject, reply of the same or another kind, hijack. */
  cause: string;
}

export interface AttachmentRead {
  week: number;
  seq: number;
  /** Settled by the rules on the true customer. */
  right: boolean;
  /** Settled by the rules, with a mark matched in the attachments among the winner's evidence. */
  onAttachments: boolean;
  /** Asked (a person decided), or settled wrongly. */
  outcome: 'rules' | 'asked' | 'misrouted';
  /** The attachment notes (a document not read) and the reading, as the agent said them. */
  reads: string;
}

/** A kind misread's cause in the world's terms (issue 14). */
export function kindCause(m: StreamMessage): string {
  if (m.phenomena.includes('thread-hijack'))
    return m.phenomena.includes('reply-other-kind') ? 'hijack, another kind in the subject' : 'hijack';
  if (m.phenomena.includes('reply-other-kind')) return 'reply, another kind in the inherited subject';
  if (m.phenomena.includes('quoted-chain')) return 'reply, same kind';
  return 'fresh subject';
}

const OPERATOR = 'dana@forwarder.example';

interface PendingLesson {
  collection: string;
  entry: string;
  value: Record<string, unknown>;
  typed: string;
  suggested: boolean;
  /** The suggestion's label, when it is one. */
  label?: string;
}

export async function simulate(
  world: World,
  mode: Mode,
  progress: (line: string) => void,
  worldSeed = 1,
): Promise<RunResult> {
  const started = performance.now();
  // Issue 26's operator: she confirms a suggestion 85 % of the time whatever its label says (§8's
  // rationale: most people confirm), and otherwise types the narrowest mark she can see.
  const operator = createRandom(worldSeed ^ 0x0085c0f1);
  // The server in its own process (src/main.ts), so the three runs can go side by side.
  const host = await startChild({});
  try {
    const authority = new AuthorityClient(host.url, host.token);
    const agent = await AgentClient.connect(host.url, host.token);
    // The tenant starts from nothing learned, then gets its directory: the world's customers and
    // kinds by name only (a label-only lesson each), no marks.
    await authority.rollbackToNothing();
    const seedStarted = performance.now();
    for (const kind of KINDS) await seed(authority, 'kinds', kind, kindLabel(kind));
    const seeded = new Set<string>();

    const weeks: WeekStats[] = [];
    const questions: QuestionRecord[] = [];
    const refusals: Refusal[] = [];
    const misroutes: RunResult['misroutes'] = [];
    const answersNotTaken: RunResult['answersNotTaken'] = [];
    const kindMisreads: KindMisread[] = [];
    const attachmentReads: AttachmentRead[] = [];
    const seenSenders = new Set<string>();
    const askedSenders = new Set<string>(); // senders the operator answered a customer question for
    const refusedFor = new Set<string>(); // collection|identifier the operator was refused on
    const lessonType = new Map<number, string>(); // activation -> the type of lesson it was (issue 28)
    const taughtFor = new Map<string, string>(); // issue 39: grounds -> what the last answer on them taught
    const maxWeek = Math.max(...world.stream.map((m) => m.week));

    for (let week = 1; week <= maxWeek; week++) {
      // New business joins the directory at the start of its first week.
      for (const c of world.customers) {
        if (c.joinsInWeek <= week && !seeded.has(c.name)) {
          await seed(authority, 'customers', c.name, c.label);
          seeded.add(c.name);
        }
      }
      if (week === 1)
        progress(`  ${mode}: directory seeded in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);
      const stats: WeekStats = {
        week,
        messages: 0,
        questions: 0,
        customerQuestions: 0,
        kindQuestions: 0,
        questionsPer100: 0,
        lessonsTaught: 0,
        lessonsRefused: 0,
        lessonsAlreadyKnown: 0,
        suggestionsAccepted: 0,
        misroutes: 0,
        kindMisreads: 0,
        kindByRules: 0,
        kindAccuracy: 100,
        acceptedByType: {},
        settledByType: {},
        suggestionsDeclined: 0,
        showBackMisses: 0,
        answersNotTaken: 0,
      };
      const pending: PendingLesson[][] = [];

      const post = async (lesson: PendingLesson): Promise<boolean> => {
        const r = await authority.teach({
          collection: lesson.collection,
          entry: lesson.entry,
          value: lesson.value,
          taughtBy: OPERATOR,
          reason: lesson.suggested ? 'accepted the agent’s suggestion' : 'typed while answering',
        });
        if (!r.ok) {
          stats.lessonsRefused++;
          refusals.push({
            week,
            collection: lesson.collection,
            entry: lesson.entry,
            typed: lesson.typed,
            suggested: lesson.suggested,
            reason: `${r.code}: ${r.reason}`,
          });
          return false;
        }
        if (r.learned) {
          stats.lessonsTaught++;
          lessonType.set(r.definitionVersion, lessonTypeOf(lesson));
        } else stats.lessonsAlreadyKnown++;
        return true;
      };

      const weekStarted = performance.now();
      for (const m of world.stream.filter((s) => s.week === week)) {
        stats.messages++;
        if (process.env.BENCH_VERBOSE !== undefined && stats.messages % 25 === 0) {
          progress(
            `    ${mode}: week ${week}: ${stats.messages} messages, ${stats.questions} questions, ${((performance.now() - weekStarted) / stats.messages).toFixed(0)} ms/message`,
          );
        }
        let task = await agent.triage(m.raw, `${m.seq}.eml`);
        while (stateOf(task) === 'TASK_STATE_INPUT_REQUIRED') {
          const teach = teachBlockOf(task);
          if (teach === null)
            throw new Error(`task ${task.id} asks without a teach block: ${statusText(task)}`);
          const collection = teach.collection;
          const entry = collection === 'customers' ? m.truth.customer : m.truth.kind;
          const typed = typedMark(m, collection);
          stats.questions++;
          if (collection === 'customers') stats.customerQuestions++;
          else stats.kindQuestions++;
          const grounds =
            collection === 'customers' ? `c|${m.sender.address}|${entry}` : `k|${m.truth.customer}|${entry}`;
          const before = taughtFor.get(grounds);
          const reads = statusText(task);
          taughtFor.set(grounds, 'nothing taught');
          questions.push({
            week,
            seq: m.seq,
            collection,
            role: m.sender.role,
            sender: m.sender.address,
            cause: causeOf(m, collection, typed, seenSenders, askedSenders, refusedFor),
            reads,
            subject: m.subject,
            suggested: teach.suggested !== undefined,
            ...(teach.suggestionLabel === undefined ? {} : { suggestion: teach.suggestionLabel }),
            ...(before === undefined ? {} : { repeat: `${reasonOf(reads)}; earlier: ${before}` }),
          });

          if (mode !== 'discard') {
            const confirms = mode !== 'careful' && operator.chance(OPERATOR_CONFIRMS);
            // Issue 39: she teaches a kind only by confirming a suggestion, as people do; the careful
            // person types every mark.
            const types = mode === 'careful' || collection === 'customers';
            const lessons = lessonsFor(teach, collection, entry, types ? typed : null, !confirms);
            if (teach.suggested !== undefined && mode !== 'careful' && !lessons.some((l) => l.suggested))
              stats.suggestionsDeclined++;
            // Redeploy weekly: the operator writes the lesson down; it goes in at the week's end.
            if (mode === 'redeploy-weekly') pending.push(lessons);
            else
              for (const lesson of lessons) {
                const ok = await post(lesson);
                taughtFor.set(
                  grounds,
                  !ok ? 'refused' : lesson.suggested ? `confirmed ${lessonTypeOf(lesson)}` : 'typed',
                );
                if (ok) {
                  if (lesson.suggested) accepted(stats, lesson);
                  // Show-back (§11): the operator checks the message now reads as what was taught.
                  const shown = reportOf(await agent.recheck(task.id));
                  const reading = shown?.[collection === 'customers' ? 'customer' : 'kind'];
                  if (reading?.settled !== true || reading?.winner !== entry) stats.showBackMisses++;
                  break;
                }
                refusedFor.add(`${collection}|${lesson.typed}`);
              }
          }
          if (collection === 'customers') askedSenders.add(`${m.sender.address}|${entry}`);
          task = await agent.answer(task.id, entry);
          if (
            stateOf(task) === 'TASK_STATE_INPUT_REQUIRED' &&
            teachBlockOf(task)?.collection === collection
          ) {
            // The agent did not take the true entry as an answer. Left parked: the message is counted
            // as asked, and nothing was decided for it.
            stats.answersNotTaken++;
            answersNotTaken.push({
              week,
              seq: m.seq,
              collection,
              entry,
              said: statusText(task).slice(0, 200),
            });
            break;
          }
        }
        if (stateOf(task) === 'TASK_STATE_INPUT_REQUIRED') {
          seenSenders.add(m.sender.address);
          seenSenders.add(`kinds|${m.kindNarrowest.pattern}`);
          continue;
        }
        if (stateOf(task) !== 'TASK_STATE_COMPLETED') {
          throw new Error(`message ${m.seq}: task ${task.id} ended ${stateOf(task)}: ${statusText(task)}`);
        }
        const report = reportOf(task);
        const customer = report?.customer;
        if (customer?.decidedBy === 'rules' && customer.winner !== m.truth.customer) {
          stats.misroutes++;
          misroutes.push({
            week,
            seq: m.seq,
            truth: m.truth.customer,
            read: String(customer.winner),
            reads: String(customer.reads),
            sender: m.sender.address,
            cause: m.phenomena.length === 0 ? 'plain' : m.phenomena.join('+'),
          });
        }
        if (m.phenomena.includes('attachment-only')) {
          const byRules = customer?.decidedBy === 'rules';
          const right = byRules && customer.winner === m.truth.customer;
          const winner = (
            customer?.candidates as { name: string; evidence: { part: string }[] }[] | undefined
          )?.find((c) => c.name === customer?.winner);
          attachmentReads.push({
            week,
            seq: m.seq,
            right,
            onAttachments: right && (winner?.evidence ?? []).some((e) => e.part === 'attachments'),
            outcome: !byRules ? 'asked' : right ? 'rules' : 'misrouted',
            reads: `${String(customer?.reads)}${report?.notes === undefined ? '' : ` (notes: ${JSON.stringify(report.notes)})`}`,
          });
        }
        if (customer?.decidedBy === 'rules') settledBy(stats, customer, lessonType);
        const kind = report?.kind;
        if (kind?.decidedBy === 'rules') stats.kindByRules++;
        if (kind?.decidedBy === 'rules' && kind.winner !== m.truth.kind) {
          stats.kindMisreads++;
          kindMisreads.push({
            week,
            seq: m.seq,
            truth: m.truth.kind,
            read: String(kind.winner),
            reads: String(kind.reads),
            subject: m.subject,
            cause: kindCause(m),
          });
        }
        seenSenders.add(m.sender.address);
        seenSenders.add(`kinds|${m.kindNarrowest.pattern}`);
      }

      // Redeploy weekly: the week's lessons go in at its end, each with the typed fallback when refused.
      for (const alternatives of pending) {
        for (const lesson of alternatives) {
          const ok = await post(lesson);
          if (ok) {
            if (lesson.suggested) accepted(stats, lesson);
            break;
          }
          refusedFor.add(`${lesson.collection}|${lesson.typed}`);
        }
      }
      stats.questionsPer100 = round1((100 * stats.questions) / Math.max(1, stats.messages));
      stats.kindAccuracy = round1(100 - (100 * stats.kindMisreads) / Math.max(1, stats.kindByRules));
      weeks.push(stats);
      progress(
        `  ${mode}: week ${week}: ${stats.messages} messages, ${stats.questionsPer100} questions/100, ` +
          `${stats.lessonsTaught} taught, ${stats.lessonsRefused} refused, ${stats.misroutes} misroutes` +
          (stats.answersNotTaken > 0 ? `, ${stats.answersNotTaken} answers not taken` : '') +
          ` (${((performance.now() - weekStarted) / 1000).toFixed(0)} s)`,
      );
    }
    return {
      mode,
      weeks,
      questions,
      refusals,
      misroutes,
      answersNotTaken,
      kindMisreads,
      attachmentReads,
      seconds: round1((performance.now() - started) / 1000),
    };
  } finally {
    await host.close();
  }
}

async function seed(
  authority: AuthorityClient,
  collection: string,
  entry: string,
  label: string,
): Promise<void> {
  const r = await authority.teach({
    collection,
    entry,
    value: { label },
    taughtBy: OPERATOR,
    reason: 'directory',
  });
  if (!r.ok) throw new Error(`seeding ${collection}/${entry} was refused: ${r.reason}`);
}

function kindLabel(kind: string): string {
  const words = kind.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The mark a person would type for this message and collection (the world's operator model). */
function typedMark(m: StreamMessage, collection: string): { pattern: string; where: string } {
  return collection === 'customers' ? m.narrowest : m.kindNarrowest;
}

/**
 * The lessons the operator would post, in order of preference: the suggestion as offered, then the
 * typed mark. The typed value is filled into the block's own lesson fields, as a client rendering
 * them blind would: the first text field gets the text, the first choice field the part.
 */
function lessonsFor(
  teach: TeachBlockWire,
  collection: string,
  entry: string,
  typed: { pattern: string; where: string } | null,
  typesInstead: boolean,
): PendingLesson[] {
  const out: PendingLesson[] = [];
  if (teach.suggested !== undefined && !typesInstead) {
    out.push({
      collection,
      entry,
      value: { ...teach.suggested },
      typed: JSON.stringify(teach.suggested),
      suggested: true,
      ...(teach.suggestionLabel === undefined ? {} : { label: teach.suggestionLabel }),
    });
  }
  const textField = teach.lessonFields.find((f) => f.kind === 'text');
  const choiceField = teach.lessonFields.find((f) => f.kind === 'choice');
  if (textField !== undefined && typed !== null) {
    const value: Record<string, unknown> = { [textField.name]: typed.pattern };
    if (choiceField !== undefined && (choiceField.choices ?? []).includes(typed.where))
      value[choiceField.name] = typed.where;
    out.push({ collection, entry, value, typed: typed.pattern, suggested: false });
  }
  return out;
}

/** Issue 28: what kind of lesson an activation was: the suggestion's type, or 'typed'. */
function lessonTypeOf(lesson: PendingLesson): string {
  if (!lesson.suggested) return 'typed';
  return lesson.collection === 'customers' ? suggestionType(lesson.label) : `${lesson.collection} cue`;
}

/** Counts a message the rules settled under each type of lesson among the winner's deciding activations. */
function settledBy(
  stats: WeekStats,
  reading: Record<string, unknown>,
  lessonType: ReadonlyMap<number, string>,
): void {
  const candidates = (reading.candidates ?? []) as { name: string; evidence?: { activation?: number }[] }[];
  const winner = candidates.find((c) => c.name === reading.winner);
  const types = new Set(
    (winner?.evidence ?? []).map((e) => lessonType.get(e.activation ?? -1) ?? 'seeded or earlier'),
  );
  for (const t of types) stats.settledByType[t] = (stats.settledByType[t] ?? 0) + 1;
}

/** Issue 26: the share of suggestions the operator confirms, whatever their label says. */
export const OPERATOR_CONFIRMS = 0.85;

/** The type of an accepted suggestion, from its label's opening words. */
export function suggestionType(label: string | undefined): string {
  const l = label ?? '';
  if (l.startsWith('references shaped')) return 'family';
  if (l.startsWith('the domain')) return 'domain';
  if (l.startsWith('the address')) return 'address';
  if (l.startsWith('the name')) return 'name';
  if (l.startsWith('the client')) return 'client';
  if (l.startsWith('the reference')) return 'reference';
  return 'other';
}

function accepted(stats: WeekStats, lesson: PendingLesson): void {
  stats.suggestionsAccepted++;
  const type = lesson.collection === 'customers' ? suggestionType(lesson.label) : `${lesson.collection} cue`;
  stats.acceptedByType[type] = (stats.acceptedByType[type] ?? 0) + 1;
}

function causeOf(
  m: StreamMessage,
  collection: string,
  typed: { pattern: string },
  seen: ReadonlySet<string>,
  asked: ReadonlySet<string>,
  refused: ReadonlySet<string>,
): string {
  if (refused.has(`${collection}|${typed.pattern}`))
    return `the mark the operator types ("${typed.pattern}") was refused before`;
  if (collection !== 'customers') {
    return seen.has(`kinds|${typed.pattern}`)
      ? 'subject wording seen before, not yet taught'
      : 'first subject with this wording';
  }
  if (!seen.has(m.sender.address)) return 'first message from this sender';
  if (asked.has(`${m.sender.address}|${m.truth.customer}`)) {
    return 'asked before about this sender and customer (the earlier lesson did not cover this message)';
  }
  if (m.sender.role === 'staff')
    return 'known sender whose earlier mail settled on another mark, so its address was never taught';
  return `shared ${m.sender.role} sender, first time for this customer`;
}

/** What the agent says it saw, in general words: its first clause, quoted text left out. */
export function reasonOf(reads: string): string {
  const first =
    reads
      .replace(/,?\s*(?:so\s+)?I can['’]t tell[^?]*\?/u, '')
      .replace(/(["'‘“])[^"'’”]*["'’”]/g, '…')
      .split(/[.:;(]/)[0] ?? '';
  return first.trim().slice(0, 90);
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}
