import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/**
 * Which addresses outbound calls to customer-supplied URLs (webhooks) may reach. Only public
 * unicast addresses pass: private, loopback, link-local, unique-local, CGNAT, multicast,
 * unspecified, documentation and reserved ranges are refused, as are their IPv6 spellings
 * (IPv4-mapped, IPv4-compatible, 6to4 and NAT64 forms carry an IPv4 address that is classified too).
 * Used when a URL is saved and again at send time, against every resolved address.
 */
export type AddressClass =
  | 'public'
  | 'unspecified'
  | 'private'
  | 'loopback'
  | 'link-local'
  | 'unique-local'
  | 'site-local'
  | 'cgnat'
  | 'multicast'
  | 'broadcast'
  | 'documentation'
  | 'benchmarking'
  | 'ipv4-mapped'
  | 'reserved'
  | 'invalid';

interface Range {
  network: number[];
  prefix: number;
  kind: AddressClass;
}

const v4 = (cidr: string, kind: AddressClass): Range => {
  const [address, prefix] = cidr.split('/');
  return { network: address.split('.').map(Number), prefix: Number(prefix), kind };
};

// IANA IPv4 special-purpose registry (the ranges no public receiver lives in). Order matters:
// the first match wins, so narrower ranges come before the ranges that contain them.
const IPV4_RANGES: Range[] = [
  v4('255.255.255.255/32', 'broadcast'),
  v4('0.0.0.0/8', 'unspecified'),
  v4('10.0.0.0/8', 'private'),
  v4('100.64.0.0/10', 'cgnat'),
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.0.0/16', 'link-local'),
  v4('172.16.0.0/12', 'private'),
  v4('192.0.0.0/24', 'reserved'),
  v4('192.0.2.0/24', 'documentation'),
  v4('192.88.99.0/24', 'reserved'),
  v4('192.168.0.0/16', 'private'),
  v4('198.18.0.0/15', 'benchmarking'),
  v4('198.51.100.0/24', 'documentation'),
  v4('203.0.113.0/24', 'documentation'),
  v4('224.0.0.0/4', 'multicast'),
  v4('240.0.0.0/4', 'reserved'),
];

function inRange(bytes: number[], network: number[], prefix: number): boolean {
  for (let bit = 0; bit < prefix; bit += 1) {
    const byte = bit >> 3;
    const mask = 0x80 >> (bit & 7);
    if ((bytes[byte] & mask) !== ((network[byte] ?? 0) & mask)) return false;
  }
  return true;
}

function parseIPv4(text: string): number[] | undefined {
  if (isIP(text) !== 4) return undefined;
  return text.split('.').map(Number);
}

/** The 16 bytes of an IPv6 address (zone id ignored), or undefined when it is not one. */
function parseIPv6(text: string): number[] | undefined {
  const address = text.split('%')[0];
  if (isIP(address) !== 6) return undefined;
  let groups: string[];
  let tail: number[] = [];
  let body = address;
  const lastColon = body.lastIndexOf(':');
  if (body.slice(lastColon + 1).includes('.')) {
    tail = parseIPv4(body.slice(lastColon + 1)) ?? [];
    body = body.slice(0, lastColon + 1) + '0:0';
  }
  const halves = body.split('::');
  if (halves.length === 2) {
    const head = halves[0] ? halves[0].split(':') : [];
    const rest = halves[1] ? halves[1].split(':') : [];
    groups = [...head, ...Array(8 - head.length - rest.length).fill('0'), ...rest];
  } else {
    groups = body.split(':');
  }
  const bytes = groups.flatMap((group) => {
    const value = parseInt(group, 16);
    return [value >> 8, value & 0xff];
  });
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

const hex = (value: string) => value.split(':').flatMap((group) => [parseInt(group, 16) >> 8, parseInt(group, 16) & 0xff]);
const v6 = (prefixGroups: string, prefix: number, kind: AddressClass): Range => ({ network: hex(prefixGroups), prefix, kind });

const IPV6_RANGES: Range[] = [
  v6('64:ff9b:1', 48, 'reserved'),
  v6('100:0:0:0', 64, 'reserved'),
  v6('2001:db8', 32, 'documentation'),
  v6('2001:0', 23, 'reserved'),
  v6('3fff:0', 20, 'documentation'),
  v6('5f00', 16, 'reserved'),
  v6('fc00', 7, 'unique-local'),
  v6('fe80', 10, 'link-local'),
  v6('fec0', 10, 'site-local'),
  v6('ff00', 8, 'multicast'),
];

function classifyIPv4(bytes: number[]): AddressClass {
  return IPV4_RANGES.find((range) => inRange(bytes, range.network, range.prefix))?.kind ?? 'public';
}

function classifyIPv6(bytes: number[]): AddressClass {
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0);
  if (zeros(0, 16)) return 'unspecified';
  if (zeros(0, 15) && bytes[15] === 1) return 'loopback';
  // ::ffff:a.b.c.d (mapped): never a legitimate receiver address, whatever it embeds.
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) {
    const embedded = classifyIPv4(bytes.slice(12));
    return embedded === 'public' ? 'ipv4-mapped' : embedded;
  }
  // ::a.b.c.d (deprecated IPv4-compatible) and the rest of ::/96.
  if (zeros(0, 12)) return 'reserved';
  // 64:ff9b::/96 (NAT64 well-known prefix) reaches the embedded IPv4 address.
  if (inRange(bytes, hex('64:ff9b:0:0:0:0'), 96)) return classifyIPv4(bytes.slice(12));
  // 2002::/16 (6to4) reaches the IPv4 address in bytes 2..5.
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return classifyIPv4(bytes.slice(2, 6));
  const special = IPV6_RANGES.find((range) => inRange(bytes, range.network, range.prefix));
  if (special) return special.kind;
  // Only 2000::/3 is allocated as global unicast.
  return (bytes[0] & 0xe0) === 0x20 ? 'public' : 'reserved';
}

/** The class of an IP address (IPv4, IPv6, IPv6 with zone id or brackets); 'invalid' for anything else. */
export function classifyAddress(ip: string): AddressClass {
  const text = typeof ip === 'string' ? ip.trim().replace(/^\[(.*)\]$/, '$1') : '';
  const ipv4 = parseIPv4(text);
  if (ipv4) return classifyIPv4(ipv4);
  const ipv6 = parseIPv6(text);
  if (ipv6) return classifyIPv6(ipv6);
  return 'invalid';
}

/** True only for a public unicast address. */
export function isPublicAddress(ip: string): boolean {
  return classifyAddress(ip) === 'public';
}

export type UrlPolicyReason = 'malformed' | 'too-long' | 'scheme' | 'credentials' | 'host' | 'unresolvable' | 'non-public-address';

/** A URL the policy refuses; `message` is safe to show to the client. */
export class UrlPolicyError extends Error {
  constructor(
    readonly reason: UrlPolicyReason,
    message: string,
  ) {
    super(message);
    this.name = 'UrlPolicyError';
  }
}

/** Resolves a host name to every address it has (A and AAAA). */
export type HostResolver = (hostname: string) => Promise<string[]>;

export const systemHostResolver: HostResolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

export interface UrlPolicyOptions {
  /** Development setting (WEBHOOK_ALLOW_INSECURE_URLS): allows http and non-public addresses. */
  allowInsecure: boolean;
  /**
   * Exact origins (`http://127.0.0.1:4444`) allowed as if insecure URLs were, and only they
   * (WEBHOOK_ALLOWED_INSECURE_ORIGINS): the one-machine mode's reference receiver, without opening
   * every loopback or private address.
   */
  allowedInsecureOrigins?: readonly string[];
  resolve?: HostResolver;
  resolveTimeoutMs?: number;
  maxLength?: number;
  /**
   * Resolve the host even when insecure URLs are allowed (the addresses are then returned but not
   * refused), for callers that connect to the addresses checked rather than look the host up again.
   */
  resolveWhenInsecure?: boolean;
}

export interface CheckedUrl {
  url: URL;
  /** The addresses checked (empty for an insecure-allowed URL unless resolveWhenInsecure): connect to one of these, not to a new lookup. */
  addresses: string[];
}

/**
 * Checks a receiver URL: http(s) only (http only when insecure URLs are allowed), no credentials in
 * it, and — unless insecure URLs are allowed, in general or for its exact origin — every address its
 * host resolves to is public.
 * Throws UrlPolicyError with a client-safe message.
 */
export async function assertPublicUrl(input: string, options: UrlPolicyOptions): Promise<CheckedUrl> {
  const maxLength = options.maxLength ?? 2048;
  if (typeof input !== 'string' || input.length === 0) throw new UrlPolicyError('malformed', 'must be an absolute URL');
  if (input.length > maxLength) throw new UrlPolicyError('too-long', `must be at most ${maxLength} characters`);
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new UrlPolicyError('malformed', 'must be an absolute URL');
  }
  const insecure = options.allowInsecure || (options.allowedInsecureOrigins ?? []).includes(url.origin);
  const schemes = insecure ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) {
    throw new UrlPolicyError('scheme', insecure ? 'must be an http or https URL' : 'must be an https URL');
  }
  if (url.username !== '' || url.password !== '') throw new UrlPolicyError('credentials', 'must not contain a user name or password');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === '') throw new UrlPolicyError('host', 'must name a host');
  if (insecure && !options.resolveWhenInsecure) return { url, addresses: [] };

  let addresses: string[];
  if (isIP(host)) {
    addresses = [host];
  } else {
    addresses = await resolveWithTimeout(host, options.resolve ?? systemHostResolver, options.resolveTimeoutMs ?? 3_000);
  }
  if (insecure) return { url, addresses };
  for (const address of addresses) {
    const kind = classifyAddress(address);
    if (kind !== 'public') throw new UrlPolicyError('non-public-address', `host must be a public address (${host} is ${kind === 'invalid' ? 'not routable' : kind})`);
  }
  return { url, addresses };
}

async function resolveWithTimeout(host: string, resolve: HostResolver, timeoutMs: number): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const addresses = await Promise.race([
      resolve(host),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
        timer.unref();
      }),
    ]);
    if (!Array.isArray(addresses) || addresses.length === 0) throw new Error('no addresses');
    return addresses;
  } catch {
    throw new UrlPolicyError('unresolvable', `host ${host} could not be resolved`);
  } finally {
    clearTimeout(timer);
  }
}
