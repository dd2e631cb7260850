import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigurationError } from '@courier/config';
import { loadReceiverConfig, maskSecret, normaliseReceiverConfig, resolveDataFile } from './receiver.config';

describe('receiver configuration', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'receiver-config-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('has the defaults of interface.md and decisions.md, without a database', () => {
    const config = loadReceiverConfig({ LOCAL_DATA_DIR: dir });
    expect(config).toMatchObject({
      PORT: 4444,
      SERVICE_API_URL: 'http://localhost:3000',
      SERVICE_API_KEY: '',
      SERVICE_RESTAURANT_ID: '',
      WEBHOOK_SECRET: '',
      RECEIVER_HISTORY_LIMIT: 500,
    });
    expect(resolveDataFile(config)).toBe(path.resolve(dir, 'receiver-state.json'));
    expect(resolveDataFile({ LOCAL_DATA_DIR: dir, RECEIVER_DATA_FILE: '/tmp/x/state.json' })).toBe('/tmp/x/state.json');
  });

  it('fails fast naming each bad variable', () => {
    try {
      loadReceiverConfig({ LOCAL_DATA_DIR: dir, PORT: 'eighty', SERVICE_API_URL: 'localhost:3000', SERVICE_RESTAURANT_ID: 'demo' });
      throw new Error('expected a ConfigurationError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigurationError);
      const message = (error as Error).message;
      expect(message).toMatch(/PORT must be an integer/);
      expect(message).toMatch(/SERVICE_API_URL must be an http\(s\) URL/);
      expect(message).toMatch(/SERVICE_RESTAURANT_ID must start with rest_/);
    }
  });

  it('takes the demo restaurant from <LOCAL_DATA_DIR>/demo.json for what the environment leaves unset', async () => {
    await writeFile(
      path.join(dir, 'demo.json'),
      JSON.stringify({ restaurant: { restaurantId: 'rest_demoAAAAAAAAAAAAAAAAAAAA', apiKey: 'demo-key-123456', webhookSecret: 'whsec_AAAA' } }),
    );
    expect(loadReceiverConfig({ LOCAL_DATA_DIR: dir })).toMatchObject({
      SERVICE_RESTAURANT_ID: 'rest_demoAAAAAAAAAAAAAAAAAAAA',
      SERVICE_API_KEY: 'demo-key-123456',
      WEBHOOK_SECRET: 'whsec_AAAA',
    });
    // The environment wins, and an explicitly empty WEBHOOK_SECRET switches verification off.
    expect(loadReceiverConfig({ LOCAL_DATA_DIR: dir, SERVICE_API_KEY: 'env-key', WEBHOOK_SECRET: '' })).toMatchObject({
      SERVICE_API_KEY: 'env-key',
      WEBHOOK_SECRET: '',
      SERVICE_RESTAURANT_ID: 'rest_demoAAAAAAAAAAAAAAAAAAAA',
    });
  });

  it('accepts typed values from an in-process launcher and fills the defaults', () => {
    const config = normaliseReceiverConfig({ PORT: 0, SERVICE_RESTAURANT_ID: 'rest_abc', RECEIVER_HISTORY_LIMIT: 10 });
    expect(config).toMatchObject({ PORT: 0, SERVICE_RESTAURANT_ID: 'rest_abc', RECEIVER_HISTORY_LIMIT: 10, SERVICE_API_URL: 'http://localhost:3000', LOG_PRETTY: false });
    expect(() => normaliseReceiverConfig({ RECEIVER_HISTORY_LIMIT: 0 })).toThrow(/RECEIVER_HISTORY_LIMIT/);
  });

  it('masks secrets down to their last 4 characters, short ones entirely', () => {
    expect(maskSecret('whsec_abcdefghijklmnop')).toBe('****mnop');
    expect(maskSecret('short')).toBe('****');
    expect(maskSecret('')).toBe('');
  });
});
