/**
 * The operator console (issue 17): a conformant client (§3) that holds the human. It signs in with
 * the operator's own token, reads the agent card, lists questions (A2A ListTasks), renders lesson
 * fields blind (§6.3), dry-runs a lesson (§13.1), teaches through the authority (§12.1), shows the
 * effect by show-back (§11, never "Saved"), corrects a mistake by reverting one activation (§10.3,
 * §13.4), and shows history, rollback and erase (§14), who writes for whom (Senders, issue 38), and how deliveries went (Deliveries, issue 40).
 *
 * Deliberately not here: any one learnable's words or lesson-value keys (everything comes from the
 * card and the teach block), and any route the server does not expose publicly.
 */
import { isObject } from './api.ts';
import { say } from './dom.ts';
import { renderLearning } from './learning.ts';
import { main, problem, show, STORE_KEY, type Session } from './page.ts';
import { decidesPage } from './pages/decides.ts';
import { deliveriesPage } from './pages/deliveries.ts';
import { donePage } from './pages/decided.ts';
import { historyPage } from './pages/history.ts';
import { questionsPage, taskPage } from './pages/questions.ts';
import { sendersPage } from './pages/senders.ts';
import { signIn, signInPage } from './pages/sign-in.ts';

let session: Session | null = null;

function route(): void {
  const s = session;
  if (s === null) return;
  say('');
  const [, page, arg] = location.hash.split('/');
  const run = (p: Promise<void> | void) =>
    void Promise.resolve(p)
      .then(() => main.focus())
      .catch((e: unknown) => show('Something went wrong', problem(e)));
  if (page === 'task' && arg !== undefined) run(taskPage(s, decodeURIComponent(arg)));
  else if (page === 'done') run(donePage(s));
  else if (page === 'decides') run(decidesPage(s));
  else if (page === 'history') run(historyPage(s));
  else if (page === 'senders') run(sendersPage(s));
  else if (page === 'deliveries') run(deliveriesPage(s));
  else if (page === 'learning') run(renderLearning(s.authority, s.agent, show));
  else run(questionsPage(s));
}

/** A session opened: the questions first, or the page the address names. */
function opened(s: Session): void {
  session = s;
  if (location.hash === '' || location.hash === '#/') location.hash = '#/questions';
  else route();
}

window.addEventListener('hashchange', route);
const saved: unknown = JSON.parse(sessionStorage.getItem(STORE_KEY) ?? 'null');
if (isObject(saved) && typeof saved.token === 'string') {
  void signIn(
    {
      token: saved.token,
      authorityUrl: typeof saved.authorityUrl === 'string' ? saved.authorityUrl : '',
      authorityToken: typeof saved.authorityToken === 'string' ? saved.authorityToken : '',
    },
    opened,
  );
} else signInPage(null, opened);
