import type { IncomingHttpHeaders } from 'node:http';
import { API_KEY_HEADER, MAX_CREDENTIAL_LENGTH } from '@courier/http';

export interface IntakeCredentials {
  apiKey: string;
  /** Present only when a Basic header carried a non-empty secret part. */
  apiSecret?: string;
}

/**
 * The credentials of an intake request: `X-API-Key` when present and not empty (it then wins over Authorization),
 * else `Authorization: Basic base64(key ":" secret)`, where the secret part may be empty (and
 * the colon missing). Undefined when neither is usable.
 */
export function parseIntakeCredentials(headers: IncomingHttpHeaders): IntakeCredentials | undefined {
  const headerKey = headers[API_KEY_HEADER];
  // An empty X-API-Key (some clients send every header they know) counts as absent.
  if (headerKey !== undefined && headerKey !== '') {
    return typeof headerKey === 'string' && isUsable(headerKey) ? { apiKey: headerKey } : undefined;
  }
  const authorization = headers.authorization;
  if (typeof authorization !== 'string' || authorization.length > MAX_CREDENTIAL_LENGTH * 3) return undefined;
  const match = /^Basic[ ]+([A-Za-z0-9+/]+={0,2})[ ]*$/i.exec(authorization);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const apiKey = colon === -1 ? decoded : decoded.slice(0, colon);
  const apiSecret = colon === -1 ? '' : decoded.slice(colon + 1);
  if (!isUsable(apiKey) || apiSecret.length > MAX_CREDENTIAL_LENGTH) return undefined;
  return apiSecret.length > 0 ? { apiKey, apiSecret } : { apiKey };
}

function isUsable(value: string): boolean {
  return value.length > 0 && value.length <= MAX_CREDENTIAL_LENGTH;
}
