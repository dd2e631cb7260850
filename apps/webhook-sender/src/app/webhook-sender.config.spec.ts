import { ConfigurationError, validateConfig } from '@courier/config';
import { generateEncryptionKeyEntry } from '@courier/crypto';
import { WebhookSenderConfig } from './webhook-sender.config';

const base = { DATABASE_URL: 'postgres://localhost/db', SECRETS_ENCRYPTION_KEYS: generateEncryptionKeyEntry('k1') };

function problems(env: Record<string, string | undefined>): string[] {
  try {
    validateConfig(WebhookSenderConfig, env);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return (error as ConfigurationError).problems;
  }
}

describe('WebhookSenderConfig', () => {
  it('has the documented defaults (durations in ms)', () => {
    const config = validateConfig(WebhookSenderConfig, base);
    expect(config).toMatchObject({
      WEBHOOK_SENDER_PORT: 3003,
      WEBHOOK_ALLOW_INSECURE_URLS: false,
      WEBHOOK_TIMEOUT_MS: 5_000,
      WEBHOOK_RETRY_SCHEDULE: [60_000, 300_000, 900_000, 3_600_000, 14_400_000, 86_400_000],
      WEBHOOK_ALERT_AFTER: 86_400_000,
      WEBHOOK_MAX_AGE: 259_200_000,
      WEBHOOK_SIGNATURE_HEADER: 'X-Service-Signature',
      WEBHOOK_MAX_CONCURRENCY_PER_HOST: 4,
      WEBHOOK_CONCURRENCY: 64,
    });
  });

  it('reads durations and the schedule in the variables\' units', () => {
    const config = validateConfig(WebhookSenderConfig, { ...base, WEBHOOK_RETRY_SCHEDULE: '200ms, 1s,2m', WEBHOOK_MAX_AGE: '90m', WEBHOOK_ALERT_AFTER: '1.5h', WEBHOOK_ALLOW_INSECURE_URLS: 'true' });
    expect(config.WEBHOOK_RETRY_SCHEDULE).toEqual([200, 1_000, 120_000]);
    expect(config.WEBHOOK_MAX_AGE).toBe(5_400_000);
    expect(config.WEBHOOK_ALERT_AFTER).toBe(5_400_000);
    expect(config.WEBHOOK_ALLOW_INSECURE_URLS).toBe(true);
  });

  it('names each malformed variable', () => {
    expect(problems({ ...base, WEBHOOK_RETRY_SCHEDULE: '1m,soon' })).toEqual(['WEBHOOK_RETRY_SCHEDULE (every entry) must be a duration such as 250ms, 30s, 1m, 4h or 3d']);
    expect(problems({ ...base, WEBHOOK_MAX_AGE: '3 days' })).toEqual(['WEBHOOK_MAX_AGE must be a duration such as 250ms, 30s, 1m, 4h or 3d']);
    expect(problems({ ...base, WEBHOOK_ALERT_AFTER: '0s' })).toEqual(['WEBHOOK_ALERT_AFTER must be a duration such as 250ms, 30s, 1m, 4h or 3d']);
    expect(problems({ ...base, WEBHOOK_TIMEOUT_MS: 'fast' })[0]).toContain('WEBHOOK_TIMEOUT_MS');
    expect(problems({ ...base, WEBHOOK_SIGNATURE_HEADER: 'X Bad: header' })[0]).toContain('WEBHOOK_SIGNATURE_HEADER');
    expect(problems({ ...base, WEBHOOK_MAX_CONCURRENCY_PER_HOST: '0' })[0]).toContain('WEBHOOK_MAX_CONCURRENCY_PER_HOST');
    expect(problems({ ...base, WEBHOOK_ALLOW_INSECURE_URLS: 'maybe' })).toEqual(['WEBHOOK_ALLOW_INSECURE_URLS must be true or false']);
  });

  it('requires SECRETS_ENCRYPTION_KEYS and never prints key material', () => {
    expect(problems({ DATABASE_URL: base.DATABASE_URL })[0]).toContain('SECRETS_ENCRYPTION_KEYS is required');
    const found = problems({ ...base, SECRETS_ENCRYPTION_KEYS: 'k1:c2hvcnQta2V5LW1hdGVyaWFs' });
    expect(found[0]).toContain('must decode to 32 bytes');
    expect(found.join()).not.toContain('c2hvcnQta2V5LW1hdGVyaWFs');
  });
});
