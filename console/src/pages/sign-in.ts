/** Signing in: the token, the person who teaches (§9, §13.2), and the authority if it runs apart (§12.1). */
import { createApi, EXTENSION_URI, isObject } from '../api.ts';
import { h, uid } from '../dom.ts';
import { STORE_KEY, errorText, show, type Session } from '../page.ts';

/** What happens once a session opens: the router takes over (main.ts). */
export type OnSession = (session: Session) => void;

export function signInPage(problem: string | null, onSession: OnSession): void {
  const tokenId = uid('token');
  const authUrlId = uid('auth-url');
  const authTokenId = uid('auth-token');
  const personId = uid('person');
  const form = h(
    'form',
    { class: 'card' },
    h(
      'div',
      { class: 'field' },
      h('label', { for: tokenId }, 'Your token'),
      h('input', { id: tokenId, type: 'password', required: true, autocomplete: 'off' }),
    ),
    h(
      'p',
      { class: 'help' },
      'On first start the server prints a token for the demo tenant and saves it in data/demo-token.',
    ),
    h(
      'div',
      { class: 'field' },
      h('label', { for: personId }, 'Who is teaching'),
      h('input', { id: personId, type: 'email', autocomplete: 'email' }),
      h(
        'p',
        { class: 'help' },
        "Only when the token is an application's (the demo token is): the person it writes for, e.g. dana@warehouse.example. A person's own token always teaches as that person (§9).",
      ),
    ),
    h(
      'details',
      {},
      h('summary', {}, 'The authority runs in another process'),
      h(
        'div',
        { class: 'field' },
        h('label', { for: authUrlId }, 'Authority address'),
        h('input', { id: authUrlId, type: 'url', autocomplete: 'off' }),
      ),
      h(
        'div',
        { class: 'field' },
        h('label', { for: authTokenId }, 'Authority token'),
        h('input', { id: authTokenId, type: 'password', autocomplete: 'off' }),
      ),
    ),
    problem === null ? null : h('p', { class: 'problem', role: 'alert' }, problem),
    h('button', { type: 'submit' }, 'Sign in'),
  );
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const value = (id: string) => (document.getElementById(id) as HTMLInputElement).value.trim();
    const saved = {
      token: value(tokenId),
      authorityUrl: value(authUrlId),
      authorityToken: value(authTokenId),
      person: value(personId),
    };
    void signIn(saved, onSession).then((ok) => {
      if (ok) sessionStorage.setItem(STORE_KEY, JSON.stringify(saved));
    });
  });
  show('Sign in', form);
  document.getElementById(tokenId)?.focus();
}

export async function signIn(
  saved: {
    token: string;
    authorityUrl: string;
    authorityToken: string;
    person?: string;
  },
  onSession: OnSession,
): Promise<boolean> {
  const agent = createApi(location.origin, saved.token);
  const authority =
    saved.authorityUrl === ''
      ? agent
      : createApi(saved.authorityUrl.replace(/\/+$/, ''), saved.authorityToken || saved.token);
  try {
    const [card, who] = await Promise.all([agent.card(), authority.get('/whoami')]);
    await agent.rpc('ListTasks', { pageSize: 1 }); // the token must open the agent too
    const caps = isObject(card.capabilities) ? card.capabilities : {};
    const exts = Array.isArray(caps.extensions) ? caps.extensions : [];
    const ext = exts.find((e) => isObject(e) && e.uri === EXTENSION_URI);
    const params = isObject(ext) && isObject(ext.params) ? ext.params : {};
    const learnables = Array.isArray(params.learnables) ? params.learnables.filter(isObject) : [];
    // §9, §13.2: a person's token teaches as that person; an application names the person it writes for.
    const own = typeof who.principal === 'string' ? who.principal : '';
    const person = who.kind === 'person' ? own : (saved.person ?? '');
    if (person === '') {
      signInPage(
        `This token belongs to the application ${own}, which writes for a person: fill in who is teaching, or sign in with your own person token.`,
        onSession,
      );
      return false;
    }
    const session: Session = {
      agent,
      authority,
      person,
      learnables,
      labels: new Map(),
    };
    (document.getElementById('nav') as HTMLElement).hidden = false;
    (document.getElementById('who') as HTMLElement).textContent =
      `Signed in as ${session.person}${person === own ? '' : `, via ${own}`} (${typeof who.tenant === 'string' ? who.tenant : ''})`;
    onSession(session);
    return true;
  } catch (e) {
    signInPage(`That token did not open this server: ${errorText(e)}`, onSession);
    return false;
  }
}
