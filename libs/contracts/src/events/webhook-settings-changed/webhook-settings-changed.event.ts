import { AccountSnapshot } from '../account-snapshot/account-snapshot';

/**
 * `account.webhook_settings_changed`: status or cancel URL set or cleared, signing secret created,
 * rotated, removed or re-encrypted under a new key. `webhooks.signingSecretCiphertext` is opened
 * with the shared SECRETS_ENCRYPTION_KEYS (SecretBox); the plaintext never travels on the broker.
 */
export class WebhookSettingsChangedEvent extends AccountSnapshot {}
