import { createHash } from 'node:crypto';
import { isIPv6 } from 'node:net';

/** How many failed authentications a minute the app tolerates (AUTH_FAILURE_LIMIT_PER_MINUTE, AUTH_FAILURE_KEY_LIMIT_PER_MINUTE). */
export interface AuthFailureLimits {
  /** Failures from one client address; past it, that address's failed attempts get 429. */
  perAddress: number;
  /** Failures with one presented key id, from any address. */
  perKey: number;
}

/** Failures counted this minute for the request's address and, when it presents one, its key id. */
export interface AuthFailureCounts {
  address: number;
  key?: number;
}

/**
 * Whether a failed authentication is answered 429 instead of 401, and by which limit (a correct
 * credential is never refused). An address that failed `perAddress` times is refused. A key id
 * that failed `perKey` times (an attack spread over many addresses) is closed only to addresses
 * that themselves failed this minute: an attacker gets one wrong guess per address.
 */
export function authAttemptRefusal(failures: AuthFailureCounts, limits: AuthFailureLimits): 'address' | 'key' | undefined {
  if (failures.address >= limits.perAddress) return 'address';
  if (failures.key !== undefined && failures.key >= limits.perKey && failures.address > 0) return 'key';
  return undefined;
}

/**
 * The counter key of a client address: IPv4 (IPv4-mapped IPv6 included) as is, IPv6 by its /64,
 * which one subscriber usually holds whole (counting single IPv6 addresses would let one client
 * rotate past the limit).
 */
export function clientAddressKey(address: string | undefined): string {
  if (!address) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (!isIPv6(address)) return address;
  return `${expandIPv6(address).slice(0, 4).join(':')}::/64`;
}

function expandIPv6(address: string): string[] {
  const [head, tail] = address.toLowerCase().split('%')[0].split('::');
  const left = head ? head.split(':') : [];
  const right = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.map((group) => group.replace(/^0+(?=.)/, ''));
}

/** A presented key id as stored in a counter: a hash, so neither keys nor secrets sit in the store. */
export function keyIdKey(keyId: string): string {
  return createHash('sha256').update(keyId).digest('hex').slice(0, 32);
}
