import { ConfigurationError, validateConfig } from '@courier/config';
import { IntakeConfig } from './intake-api.config';

const base = { DATABASE_URL: 'postgres://localhost/db' };
const problems = (env: Record<string, string | undefined>) => {
  try {
    validateConfig(IntakeConfig, env);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return (error as ConfigurationError).problems;
  }
};

describe('IntakeConfig', () => {
  it('has the documented defaults', () => {
    const config = validateConfig(IntakeConfig, base);
    expect(config).toMatchObject({ INTAKE_PORT: 3000, INTAKE_RATE_LIMIT_PER_MINUTE: 600, GEOCODER_TIMEOUT_MS: 5000, INTAKE_LOCAL_PROCESSING_LIMIT: 256, INTAKE_LOCAL_PROCESSING_LEASE_MS: 60_000 });
    expect(config.REDIS_URL).toBeUndefined();
    expect(config.GEOCODER_URL).toBeUndefined();
  });

  it('reads the intake variables and treats empty optional URLs as unset', () => {
    const config = validateConfig(IntakeConfig, { ...base, INTAKE_RATE_LIMIT_PER_MINUTE: '30', REDIS_URL: 'redis://127.0.0.1:6379', GEOCODER_URL: 'http://127.0.0.1:8080', GEOCODER_TIMEOUT_MS: '800' });
    expect(config).toMatchObject({ INTAKE_RATE_LIMIT_PER_MINUTE: 30, REDIS_URL: 'redis://127.0.0.1:6379', GEOCODER_URL: 'http://127.0.0.1:8080', GEOCODER_TIMEOUT_MS: 800 });
    expect(validateConfig(IntakeConfig, { ...base, REDIS_URL: '', GEOCODER_URL: '' })).toMatchObject({ REDIS_URL: undefined, GEOCODER_URL: undefined });
  });

  it('names a malformed variable', () => {
    expect(problems({ ...base, INTAKE_RATE_LIMIT_PER_MINUTE: '0' })).toEqual(['INTAKE_RATE_LIMIT_PER_MINUTE must be at least 1']);
    expect(problems({ ...base, INTAKE_RATE_LIMIT_PER_MINUTE: 'many' })).toContain('INTAKE_RATE_LIMIT_PER_MINUTE must be a positive integer');
    expect(problems({ ...base, REDIS_URL: 'localhost:6379' })).toEqual(['REDIS_URL must be a redis:// or rediss:// URL']);
    expect(problems({ ...base, GEOCODER_URL: 'ftp://x' })).toEqual(['GEOCODER_URL must be an http:// or https:// URL']);
    expect(problems({ ...base, GEOCODER_TIMEOUT_MS: '10' })).toEqual(['GEOCODER_TIMEOUT_MS must be at least 100']);
    expect(problems({ ...base, INTAKE_LOCAL_PROCESSING_LIMIT: '-1' })).toEqual(['INTAKE_LOCAL_PROCESSING_LIMIT must be at least 0']);
    expect(problems({ ...base, INTAKE_LOCAL_PROCESSING_LIMIT: 'all' })).toContain('INTAKE_LOCAL_PROCESSING_LIMIT must be an integer');
    expect(problems({ ...base, INTAKE_LOCAL_PROCESSING_LEASE_MS: '50' })).toEqual(['INTAKE_LOCAL_PROCESSING_LEASE_MS must be at least 100']);
    expect(problems({ ...base, INTAKE_LOCAL_PROCESSING_LEASE_MS: '600000' })).toEqual(['INTAKE_LOCAL_PROCESSING_LEASE_MS must be at most 300000']);
    // The claim must outlast a geocoder call, when there is a geocoder.
    expect(problems({ ...base, GEOCODER_URL: 'http://127.0.0.1:8080', GEOCODER_TIMEOUT_MS: '5000', INTAKE_LOCAL_PROCESSING_LEASE_MS: '5000' })).toEqual([
      'INTAKE_LOCAL_PROCESSING_LEASE_MS must be longer than GEOCODER_TIMEOUT_MS when GEOCODER_URL is set',
    ]);
    expect(problems({ ...base, GEOCODER_URL: 'http://127.0.0.1:8080', GEOCODER_TIMEOUT_MS: '5000', INTAKE_LOCAL_PROCESSING_LEASE_MS: '5001' })).toEqual([]);
    expect(problems({ ...base, GEOCODER_TIMEOUT_MS: '5000', INTAKE_LOCAL_PROCESSING_LEASE_MS: '1000' })).toEqual([]);
  });

  it('turns the fast path off with INTAKE_LOCAL_PROCESSING_LIMIT=0', () => {
    expect(validateConfig(IntakeConfig, { ...base, INTAKE_LOCAL_PROCESSING_LIMIT: '0', INTAKE_LOCAL_PROCESSING_LEASE_MS: '5000' })).toMatchObject({
      INTAKE_LOCAL_PROCESSING_LIMIT: 0,
      INTAKE_LOCAL_PROCESSING_LEASE_MS: 5000,
    });
  });
});
