import { createHmac } from 'node:crypto';
import { parseEncryptionKeys } from '@courier/crypto';
import { credentialFingerprint, IntegrationCredentials } from '@courier/platforms';

/**
 * Fingerprints of credentials as the shared tables key them: an HMAC of the credential digest under a
 * key derived from the current SECRETS_ENCRYPTION_KEYS entry, so the database holds no plain hash of
 * a password that could be guessed offline. A key rotation changes them: one new login per
 * integration, and call budgets counted afresh (documented in docs/platform-dispatch.md).
 */
export class CredentialFingerprints {
  private readonly key: Buffer;

  constructor(secretsEncryptionKeys: string) {
    const [current] = parseEncryptionKeys(secretsEncryptionKeys);
    this.key = createHmac('sha256', current.key).update('platform-session-fingerprint').digest();
  }

  /** Keyed form of a SessionCache fingerprint (credentialFingerprint). */
  keyed(fingerprint: string): string {
    return createHmac('sha256', this.key).update(fingerprint).digest('base64url');
  }

  of(credentials: IntegrationCredentials): string {
    return this.keyed(credentialFingerprint(credentials));
  }
}
