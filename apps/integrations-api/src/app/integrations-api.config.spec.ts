import { ConfigurationError, validateConfig } from '@courier/config';
import { generateEncryptionKeyEntry } from '@courier/crypto';
import { IntegrationsConfig } from './integrations-api.config';

const base = { DATABASE_URL: 'postgres://localhost/db', SECRETS_ENCRYPTION_KEYS: generateEncryptionKeyEntry('k1') };
const problems = (env: Record<string, string | undefined>) => {
  try {
    validateConfig(IntegrationsConfig, env);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return (error as ConfigurationError).problems;
  }
};

describe('IntegrationsConfig', () => {
  it('has the documented defaults', () => {
    const config = validateConfig(IntegrationsConfig, base);
    expect(config).toMatchObject({ POS_PORT: 3001, WEBHOOK_ALLOW_INSECURE_URLS: false });
    expect(config.ADMIN_TOKEN).toBeUndefined();
  });

  it('requires SECRETS_ENCRYPTION_KEYS and explains a malformed one', () => {
    expect(problems({ DATABASE_URL: base.DATABASE_URL })).toEqual([expect.stringMatching(/^SECRETS_ENCRYPTION_KEYS is required/)]);
    expect(problems({ ...base, SECRETS_ENCRYPTION_KEYS: 'k1:c2hvcnQ=' })).toEqual(['SECRETS_ENCRYPTION_KEYS: key "k1" must decode to 32 bytes (got 5)']);
  });

  it('requires ADMIN_TOKEN in the distributed mode only, and a long one when set', () => {
    expect(problems({ ...base, RABBITMQ_URL: 'amqp://broker' })).toContain('ADMIN_TOKEN is required when RABBITMQ_URL is set');
    expect(problems({ ...base, RABBITMQ_URL: 'amqp://broker', ADMIN_TOKEN: 'x'.repeat(16) })).toEqual([]);
    expect(problems({ ...base, ADMIN_TOKEN: 'short' })).toEqual(['ADMIN_TOKEN must be at least 16 characters']);
    expect(problems({ ...base, ADMIN_TOKEN: '' })).toEqual(['ADMIN_TOKEN must be at least 16 characters']);
  });

  it('reads WEBHOOK_ALLOW_INSECURE_URLS as a boolean', () => {
    expect(validateConfig(IntegrationsConfig, { ...base, WEBHOOK_ALLOW_INSECURE_URLS: 'true' }).WEBHOOK_ALLOW_INSECURE_URLS).toBe(true);
    expect(problems({ ...base, WEBHOOK_ALLOW_INSECURE_URLS: 'perhaps' })).toEqual(['WEBHOOK_ALLOW_INSECURE_URLS must be true or false']);
  });

  it('reads WEBHOOK_SECRET_ROTATION_GRACE as a duration of at most 7 days, 24 hours by default', () => {
    expect(validateConfig(IntegrationsConfig, base).WEBHOOK_SECRET_ROTATION_GRACE).toBe(24 * 3_600_000);
    expect(validateConfig(IntegrationsConfig, { ...base, WEBHOOK_SECRET_ROTATION_GRACE: '1s' }).WEBHOOK_SECRET_ROTATION_GRACE).toBe(1000);
    expect(validateConfig(IntegrationsConfig, { ...base, WEBHOOK_SECRET_ROTATION_GRACE: '0' }).WEBHOOK_SECRET_ROTATION_GRACE).toBe(0);
    expect(problems({ ...base, WEBHOOK_SECRET_ROTATION_GRACE: 'soon' })).toEqual([expect.stringMatching(/^WEBHOOK_SECRET_ROTATION_GRACE must be a duration/)]);
    expect(problems({ ...base, WEBHOOK_SECRET_ROTATION_GRACE: '8d' })).toEqual(['WEBHOOK_SECRET_ROTATION_GRACE must be a duration such as 0, 30s, 4h or 1d, at most 7d']);
  });
});
