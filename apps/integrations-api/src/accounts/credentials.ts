import { generateToken } from '@courier/crypto';

/** Prefixes tell a reader (and secret scanners) what a leaked string is. */
export const API_KEY_PREFIX = 'cik_';
export const API_SECRET_PREFIX = 'cis_';

export interface ApiKeyPair {
  apiKey: string;
  apiSecret: string;
}

/** A fresh key pair, 256 bits of randomness each. */
export function newApiKeyPair(): ApiKeyPair {
  return { apiKey: generateToken(32, API_KEY_PREFIX), apiSecret: generateToken(32, API_SECRET_PREFIX) };
}
