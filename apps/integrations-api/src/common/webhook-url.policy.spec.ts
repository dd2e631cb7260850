import { ProblemException } from '@courier/http';
import { IntegrationsConfig } from '../app/integrations-api.config';
import { WebhookUrlPolicy } from './webhook-url.policy';

describe('WebhookUrlPolicy', () => {
  const resolve = async (host: string) => ({ 'hooks.example': ['93.184.216.34'], 'lan.example': ['192.168.0.2'] })[host] ?? [];
  const secure = new WebhookUrlPolicy({ WEBHOOK_ALLOW_INSECURE_URLS: false } as IntegrationsConfig, resolve);

  it('normalises accepted URLs, keeps null (clear) and skips undefined (unchanged)', async () => {
    await expect(secure.check({ statusUrl: 'HTTPS://Hooks.Example/a b', cancelUrl: null, other: undefined })).resolves.toEqual({
      statusUrl: 'https://hooks.example/a%20b',
      cancelUrl: null,
    });
  });

  it('refuses with one 422 naming every refused field', async () => {
    const error = await secure.check({ statusUrl: 'https://lan.example/', cancelUrl: 'http://hooks.example/' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProblemException);
    expect((error as ProblemException).getStatus()).toBe(422);
    expect((error as ProblemException).errors).toEqual([
      { field: 'statusUrl', message: 'host must be a public address (lan.example is private)' },
      { field: 'cancelUrl', message: 'must be an https URL' },
    ]);
  });

  it('allows http and private hosts when WEBHOOK_ALLOW_INSECURE_URLS is on', async () => {
    const insecure = new WebhookUrlPolicy({ WEBHOOK_ALLOW_INSECURE_URLS: true } as IntegrationsConfig, resolve);
    await expect(insecure.check({ statusUrl: 'http://localhost:4444/webhook/status' })).resolves.toEqual({ statusUrl: 'http://localhost:4444/webhook/status' });
  });
});
