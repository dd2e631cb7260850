import { createHmac } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { parseEncryptionKeys } from '@courier/crypto';
import { credentialFingerprint, IntegrationCredentials } from '@courier/platforms';
import { IntegrationsConfig } from '../app/integrations-api.config';

/**
 * Fingerprints of the credentials a verification was about: an HMAC under a key derived from the
 * current SECRETS_ENCRYPTION_KEYS entry, so the stored and shown value lets no one guess a password
 * offline. A verdict is stored only while the fingerprint of the stored credentials is still the one
 * checked (a change meanwhile is verified on its own).
 */
@Injectable()
export class IntegrationFingerprints {
  private readonly key: Buffer;

  constructor(config: IntegrationsConfig) {
    const [current] = parseEncryptionKeys(config.SECRETS_ENCRYPTION_KEYS);
    this.key = createHmac('sha256', current.key).update('integration-verification-fingerprint').digest();
  }

  of(platform: string, credentials: IntegrationCredentials): string {
    return createHmac('sha256', this.key).update(`${platform}\n${credentialFingerprint(credentials)}`).digest('base64url').slice(0, 22);
  }
}
