import { isIP } from 'node:net';

const NAMED_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * TRUST_PROXY as Express's `trust proxy` setting: "false" (the default: the client address is the
 * socket's, X-Forwarded-For is ignored), "true" (the left-most X-Forwarded-For entry, only behind a
 * proxy that overwrites the header), a number of proxy hops in front of the app (behind the
 * Ingress: 1), or a comma-separated list of trusted proxy addresses, CIDR ranges or the names
 * loopback, linklocal, uniquelocal. Undefined when malformed.
 */
export function parseTrustProxy(raw: string | undefined): boolean | number | string[] | undefined {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d{1,2}$/.test(value)) return Number(value);
  const entries = value.split(',').map((entry) => entry.trim());
  const valid = entries.every((entry) => {
    if (NAMED_RANGES.includes(entry)) return true;
    const [address, bits, extra] = entry.split('/');
    if (extra !== undefined || isIP(address) === 0) return false;
    return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (isIP(address) === 4 ? 32 : 128));
  });
  return valid ? entries : undefined;
}
