/**
 * Where this server may POST: the rule against server-side request forgery for push
 * notifications and tenant delivery webhooks alike. An agent that POSTs to any URL a client names
 * can be made to reach the machines behind it (a2aproject/a2a-python#1164), so a URL must be
 * `https`, and every address its host resolves to must be public unicast: loopback, link-local,
 * private, shared (CGNAT), multicast, unspecified and reserved addresses are refused. A host listed
 * in PUSH_NOTIFICATION_ALLOWED_HOSTS (`host` or `host:port`) is exempt, and only it may use `http`.
 *
 * The rule is applied twice: when a config is stored (`checkUrl`, so the client hears at once) and
 * again at send time (`checkRules`, then `guardedLookup` as the socket's own DNS lookup, so the
 * address checked is the address connected to, resolved once: a name that resolves differently
 * later, DNS rebinding, is refused then too).
 *
 * Deliberately not here: sending (dispatcher.ts), or which URL belongs to whom (the stores).
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Why a URL is refused, in words naming the value and what to do. */
export class RefusedUrlError extends Error {
  override readonly name = 'RefusedUrlError';
}

/** Resolves a host to every address it has (node:dns's `lookup` with `all: true` by default). */
export type Resolve = (host: string) => Promise<readonly LookupAddress[]>;

export const systemResolve: Resolve = (host) =>
  new Promise((resolve, reject) => {
    dnsLookup(host, { all: true }, (e, addresses) => (e === null ? resolve(addresses) : reject(e)));
  });

export interface UrlGuard {
  /** When a URL is stored: its rules, and every address its host resolves to now. Throws RefusedUrlError naming the rule. */
  checkUrl(url: string): Promise<URL>;
  /**
   * When it is sent: the rules without DNS (an IP literal is judged here, since a socket looks no
   * literal up); a name is judged by `lookupFor`, on the socket itself.
   */
  checkRules(url: string): URL;
  /** The DNS lookup for the socket that sends to `url` (checked at connect time). */
  lookupFor(url: URL): LookupFunction | undefined;
}

export interface UrlGuardOptions {
  /** PUSH_NOTIFICATION_ALLOWED_HOSTS: `host` or `host:port`, lower case. */
  readonly allowedHosts: readonly string[];
  readonly resolve?: Resolve;
}

const ALLOWED_HOSTS = 'PUSH_NOTIFICATION_ALLOWED_HOSTS';

export function createUrlGuard(options: UrlGuardOptions): UrlGuard {
  const allowed = new Set(options.allowedHosts.map((h) => h.toLowerCase()));
  const resolve = options.resolve ?? systemResolve;
  const isAllowed = (url: URL): boolean => {
    const host = bareHost(url);
    return allowed.has(host) || allowed.has(`${host}:${portOf(url)}`);
  };
  const checkRules = (raw: string): URL => {
    const url = parseUrl(raw);
    if (isAllowed(url)) return url;
    if (url.protocol !== 'https:')
      throw new RefusedUrlError(
        `The URL "${raw}" uses ${url.protocol.slice(0, -1)}; a delivery URL must be https (plain http only for a host listed in ${ALLOWED_HOSTS}).`,
      );
    const host = bareHost(url);
    if (isIP(host) !== 0) refuseInternal(host, raw);
    return url;
  };
  return {
    checkRules,
    async checkUrl(raw) {
      const url = checkRules(raw);
      const host = bareHost(url);
      if (isAllowed(url) || isIP(host) !== 0) return url;
      for (const address of await resolveOrRefuse(resolve, host, raw)) refuseInternal(address, raw);
      return url;
    },
    lookupFor(url) {
      if (isAllowed(url)) return undefined;
      return guardedLookup(resolve, url.href);
    },
  };
}

/** The socket's lookup: resolves, refuses an internal address, hands over the first that passed. */
function guardedLookup(resolve: Resolve, href: string): LookupFunction {
  return (host, options, callback) => {
    const done = callback;
    const literal = isIP(host) !== 0 ? [{ address: host, family: isIP(host) }] : null;
    (literal === null ? resolve(host) : Promise.resolve(literal))
      .then((addresses) => {
        for (const a of addresses) refuseInternal(a.address, href);
        const first = addresses[0];
        if (first === undefined) throw new RefusedUrlError(`The host of "${href}" has no address.`);
        if (options.all === true) done(null, [...addresses]);
        else done(null, first.address, first.family);
      })
      .catch((e: unknown) => done(e instanceof Error ? e : new Error(String(e)), ''));
  };
}

async function resolveOrRefuse(resolve: Resolve, host: string, raw: string): Promise<string[]> {
  try {
    return (await resolve(host)).map((a) => a.address);
  } catch (e) {
    const code = (e as { code?: string }).code ?? String(e);
    throw new RefusedUrlError(
      `The host of "${raw}" does not resolve (${code}); name a host this server can reach.`,
    );
  }
}

/**
 * Refuses every address that is not public unicast. An IPv6 address that embeds an IPv4 one is
 * judged as that IPv4 address (`[::127.0.0.1]` reached loopback).
 */
function refuseInternal(address: string, raw: string): void {
  const parsed = ipaddr.parse(address);
  const ip = parsed.kind() === 'ipv6' ? (embeddedIPv4(parsed as ipaddr.IPv6) ?? parsed) : parsed;
  const range = ip.range();
  if (range === 'unicast') return;
  throw new RefusedUrlError(
    `The URL "${raw}" reaches ${address}, a ${range} address; delivery goes only to public addresses (list the host in ${ALLOWED_HOSTS} to allow it).`,
  );
}

/**
 * The IPv4 address an IPv6 one carries, in each form that embeds one: IPv4-mapped (::ffff:0:0/96),
 * IPv4-compatible (::/96, deprecated by RFC 4291 but still routed by some stacks), NAT64 (RFC 6052
 * 64:ff9b::/96 and RFC 8215 64:ff9b:1::/48), 6to4 (2002::/16) and Teredo (2001::/32, the client
 * address inverted); null when it carries none.
 */
function embeddedIPv4(ip: ipaddr.IPv6): ipaddr.IPv4 | null {
  const w = ip.parts; // eight 16-bit words
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  const zeros = (from: number, to: number) => w.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && w[5] === 0xffff) return v4(w[6]!, w[7]!);
  if (zeros(0, 6) && !(w[6] === 0 && w[7]! <= 1)) return v4(w[6]!, w[7]!);
  if (w[0] === 0x64 && w[1] === 0xff9b && (zeros(2, 6) || w[2] === 1)) return v4(w[6]!, w[7]!);
  if (w[0] === 0x2002) return v4(w[1]!, w[2]!);
  if (w[0] === 0x2001 && w[1] === 0) return v4(w[6]! ^ 0xffff, w[7]! ^ 0xffff);
  return null;
}

function parseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RefusedUrlError(`"${raw}" is not a URL; give an absolute https URL.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new RefusedUrlError(
      `The URL "${raw}" uses ${url.protocol.slice(0, -1)}; a delivery URL must be https.`,
    );
  if (url.username !== '' || url.password !== '')
    throw new RefusedUrlError(
      `The URL "${raw}" carries credentials; pass them as the config's authentication instead.`,
    );
  return url;
}

/** The host without IPv6 brackets, lower case. */
function bareHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
}

function portOf(url: URL): string {
  return url.port !== '' ? url.port : url.protocol === 'https:' ? '443' : '80';
}
