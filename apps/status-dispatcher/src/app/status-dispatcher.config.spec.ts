import { ConfigurationError, validateConfig } from '@courier/config';
import { generateEncryptionKeyEntry } from '@courier/crypto';
import { DispatcherConfig } from './status-dispatcher.config';

const KEY_A = 'internal-key-aaaaaaaaaaaa';
const KEY_B = 'internal-key-bbbbbbbbbbbb';
const base = { DATABASE_URL: 'postgres://localhost/db', INTERNAL_API_KEYS: KEY_A, SECRETS_ENCRYPTION_KEYS: generateEncryptionKeyEntry('k1') };

function problems(env: Record<string, string | undefined>): string[] {
  try {
    validateConfig(DispatcherConfig, env);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return (error as ConfigurationError).problems;
  }
}

describe('DispatcherConfig', () => {
  it('has the documented defaults', () => {
    const config = validateConfig(DispatcherConfig, base);
    expect(config.STATUS_DISPATCHER_PORT).toBe(3002);
    expect(config.INTERNAL_API_KEYS).toEqual([KEY_A]);
    expect(config).toMatchObject({
      STATUS_PUSH_RETRY_BASE_MS: 1_000,
      STATUS_PUSH_RETRY_MAX_DELAY_MS: 60_000,
      STATUS_PUSH_RETRY_MAX_AGE_MS: 3_600_000,
    });
  });

  it('requires SECRETS_ENCRYPTION_KEYS (the platform calls open the integrations\' secrets) and names bad variables', () => {
    const { SECRETS_ENCRYPTION_KEYS: _keys, ...withoutKeys } = base;
    expect(problems(withoutKeys).join()).toMatch(/SECRETS_ENCRYPTION_KEYS/);
    expect(problems({ ...base, SECRETS_ENCRYPTION_KEYS: 'k1:short' }).join()).toMatch(/SECRETS_ENCRYPTION_KEYS/);
    expect(problems({ ...base, STATUS_PUSH_RETRY_MAX_AGE_MS: '5' }).join()).toMatch(/STATUS_PUSH_RETRY_MAX_AGE_MS/);
  });

  it('reads several comma-separated keys (rotation), trimming blanks', () => {
    expect(validateConfig(DispatcherConfig, { ...base, INTERNAL_API_KEYS: ` ${KEY_A} , ${KEY_B},` }).INTERNAL_API_KEYS).toEqual([KEY_A, KEY_B]);
  });

  it('requires INTERNAL_API_KEYS', () => {
    const expected = ['INTERNAL_API_KEYS is required: comma-separated keys, each at least 16 characters'];
    expect(problems({ DATABASE_URL: base.DATABASE_URL, SECRETS_ENCRYPTION_KEYS: base.SECRETS_ENCRYPTION_KEYS })).toEqual(expected);
    expect(problems({ ...base, INTERNAL_API_KEYS: '' })).toEqual(expected);
    expect(problems({ ...base, INTERNAL_API_KEYS: ' , ' })).toEqual(expected);
  });

  it('refuses a short key without printing it', () => {
    const found = problems({ ...base, INTERNAL_API_KEYS: `${KEY_A},tooShort123` });
    expect(found).toEqual(['INTERNAL_API_KEYS: key 2 is shorter than 16 characters']);
    expect(found.join()).not.toContain('tooShort123');
    expect(problems({ ...base, INTERNAL_API_KEYS: 'x'.repeat(15) })).toEqual(['INTERNAL_API_KEYS: key 1 is shorter than 16 characters']);
    expect(problems({ ...base, INTERNAL_API_KEYS: 'x'.repeat(16) })).toEqual([]);
  });

  it('names a bad port', () => {
    expect(problems({ ...base, STATUS_DISPATCHER_PORT: 'abc' })).toContain('STATUS_DISPATCHER_PORT must be an integer port number');
  });
});
