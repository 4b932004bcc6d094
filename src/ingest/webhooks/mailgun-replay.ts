/**
 * Mailgun's replay guard for the inbound router (router.ts): a verified signature is spent once, in
 * this process's memory (seen-tokens.ts) and, given a store, in the database, so a replay after a
 * restart or at another process on the same database is refused too.
 */
import type { TenantId } from '../../domain/tenant.ts';
import { WebhookRefusal } from './refusal.ts';
import type { SeenTokens, SpentTokenStore } from './seen-tokens.ts';

export function mailgunReplayGuard(
  seenTokens: SeenTokens,
  maxAgeSeconds: number,
  store: SpentTokenStore | undefined,
): (tenant: TenantId, fields: ReadonlyMap<string, string>, now: number) => Promise<() => Promise<void>> {
  /**
   * A verified signature is good for one post (Mailgun signs timestamp + token, not the body): a
   * second post with the same token inside the window is refused as a replay, 406 like a forgery,
   * since it cannot be told from one. Mailgun itself resends a token only when it got no 2xx, and
   * the first post's message was then already received, so stopping it loses nothing.
   */
  async function spendMailgunToken(
    tenant: TenantId,
    fields: ReadonlyMap<string, string>,
    now: number,
  ): Promise<() => Promise<void>> {
    const token = fields.get('token')!;
    const expiresAtMs = (Number(fields.get('timestamp')) + maxAgeSeconds) * 1000;
    const replayed = (firstSeenMs: number) =>
      new WebhookRefusal(
        'forged',
        'UNAUTHENTICATED',
        `This Mailgun signature (timestamp ${fields.get('timestamp')!}) was already used by a post received at ${new Date(firstSeenMs).toISOString()}; a signature is good for one post only, so this one is refused as a replay and not read. If Mailgun is resending after a lost answer, the message was received the first time.`,
      );
    const claim = seenTokens.claim(tenant, token, expiresAtMs, now);
    switch (claim.kind) {
      case 'replayed':
        throw replayed(claim.firstSeenMs);
      case 'full':
        throw new WebhookRefusal(
          'busy',
          'CONFLICT',
          `Too many Mailgun posts inside the last ${maxAgeSeconds} s to remember their signatures; retry in a little while.`,
        );
      case 'claimed':
        break;
    }
    if (store === undefined) return () => Promise.resolve(claim.release());
    // Issue 12.5: spent in the store too, so a replay after a restart (or at another process on the
    // same database) is refused; this memory only spares the store the replays it has seen itself.
    let spend;
    try {
      spend = await store.spendToken(tenant, token, expiresAtMs, now);
    } catch (e) {
      claim.release();
      throw e;
    }
    if (spend.kind === 'replayed') {
      claim.release();
      throw replayed(spend.firstSeenMs);
    }
    return async () => {
      claim.release();
      await store.unspendToken(tenant, token);
    };
  }

  return spendMailgunToken;
}
