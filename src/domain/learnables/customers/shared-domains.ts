/**
 * Domains that many unrelated people send from (free-mail and shared platforms). A sender's domain
 * there says nothing about whose mail it is, so it is never suggested (§8, §13.1); only the whole
 * address may be, and only when nothing says the sender writes for others.
 */

const FREE_MAIL = new Set([
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'live.com',
  'msn.com',
  'yahoo.com',
  'ymail.com',
  'rocketmail.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'aol.com',
  'gmx.com',
  'gmx.net',
  'gmx.de',
  'gmx.at',
  'gmx.ch',
  'web.de',
  't-online.de',
  'freenet.de',
  'mail.com',
  'mail.ru',
  'inbox.ru',
  'bk.ru',
  'list.ru',
  'yandex.ru',
  'yandex.com',
  'qq.com',
  'foxmail.com',
  '163.com',
  '126.com',
  'yeah.net',
  'sina.com',
  'sohu.com',
  'aliyun.com',
  'proton.me',
  'protonmail.com',
  'protonmail.ch',
  'pm.me',
  'tutanota.com',
  'tuta.io',
  'zoho.com',
  'zohomail.com',
  'fastmail.com',
  'fastmail.fm',
  'hey.com',
  'hushmail.com',
  'mailbox.org',
  'posteo.de',
  'rediffmail.com',
  'libero.it',
  'virgilio.it',
  'tiscali.it',
  'orange.fr',
  'wanadoo.fr',
  'laposte.net',
  'free.fr',
  'sfr.fr',
  'seznam.cz',
  'wp.pl',
  'o2.pl',
  'interia.pl',
  'onet.pl',
  'naver.com',
  'daum.net',
  'hanmail.net',
  'btinternet.com',
  'sky.com',
  'comcast.net',
  'verizon.net',
  'att.net',
  'bigpond.com',
  'shaw.ca',
  'rogers.com',
  'uol.com.br',
  'bol.com.br',
  'terra.com.br',
  'yahoo.co.uk',
  'yahoo.co.jp',
  'yahoo.fr',
  'yahoo.de',
  'yahoo.es',
  'yahoo.it',
  'hotmail.co.uk',
  'hotmail.fr',
  'hotmail.de',
  'outlook.de',
  'outlook.fr',
  'live.co.uk',
  'windowslive.com',
]);

/** Sending platforms whose domain carries mail for many organisations. */
const PLATFORMS = new Set([
  'amazonses.com',
  'sendgrid.net',
  'mailgun.org',
  'mailchimp.com',
  'mcsv.net',
  'mandrillapp.com',
  'sparkpostmail.com',
  'postmarkapp.com',
  'salesforce.com',
  'zendesk.com',
  'freshdesk.com',
  'hubspot.com',
  'hubspotemail.net',
  'sharepointonline.com',
  'onmicrosoft.com',
  'google.com',
  'googlegroups.com',
  'docusign.net',
  'dropbox.com',
  'box.com',
  'wetransfer.com',
]);

/** Whether `domain` (or a parent of it) is free-mail or a shared platform, or looks like one. */
export function isSharedDomain(domain: string): boolean {
  const d = domain.trim().toLowerCase().replace(/\.$/, '');
  const labels = d.split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    const parent = labels.slice(i).join('.');
    if (FREE_MAIL.has(parent) || PLATFORMS.has(parent)) return true;
  }
  // Test and demo domains named for what they are ("freemail.example", "webmail.example").
  return (
    labels.some((l) => /^(?:free-?mail|web-?mail|mailbox|e-?mail)$/.test(l)) ||
    // A free-mail brand under any top-level domain (gmail.co.uk, hotmail.fr; issue 49: gmail.example).
    /^(?:yahoo|hotmail|outlook|gmx|live|gmail|googlemail|ymail|icloud|aol|protonmail|proton|yandex|zoho)\./.test(
      d,
    )
  );
}
