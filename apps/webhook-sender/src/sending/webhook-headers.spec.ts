import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { generateWebhookSigningSecret } from '@courier/crypto';
import { webhookHeaders } from './webhook-headers';

describe('webhookHeaders', () => {
  const body = Buffer.from('{"event":"order.canceled","orderId":"pos-1","reason":"Kapalı"}', 'utf8');
  const now = new Date('2026-11-21T10:00:00.900Z');

  it('carries the ids, the attempt, both signatures and a Standard Webhooks timestamp in seconds', () => {
    const secret = generateWebhookSigningSecret();
    const headers = webhookHeaders({ webhookId: 'a1b2', attempt: 3, body, signingSecret: secret, signatureHeader: 'X-Service-Signature', now });
    expect(headers).toMatchObject({ 'Content-Type': 'application/json', 'X-Webhook-Id': 'a1b2', 'X-Webhook-Attempt': '3', 'webhook-id': 'a1b2', 'webhook-timestamp': '1795255200' });
    expect(headers['X-Service-Signature']).toBe(createHmac('sha256', secret).update(body).digest('hex'));
    const webhook = new Webhook(secret);
    expect(headers['webhook-signature']).toBe(webhook.sign('a1b2', new Date(1795255200 * 1000), body.toString('utf8')));
  });

  it('signs with both secrets during a rotation grace period: two v1 signatures, the hex header the previous secret\'s, -New the current one\'s', () => {
    const current = generateWebhookSigningSecret();
    const previous = generateWebhookSigningSecret();
    const headers = webhookHeaders({ webhookId: 'a1b2', attempt: 1, body, signingSecret: current, previousSigningSecret: previous, signatureHeader: 'X-Service-Signature', now });
    const at = new Date(1795255200 * 1000);
    expect(headers['webhook-signature']).toBe(`${new Webhook(current).sign('a1b2', at, body.toString('utf8'))} ${new Webhook(previous).sign('a1b2', at, body.toString('utf8'))}`);
    expect(headers['X-Service-Signature']).toBe(createHmac('sha256', previous).update(body).digest('hex'));
    expect(headers['X-Service-Signature-New']).toBe(createHmac('sha256', current).update(body).digest('hex'));
    expect(webhookHeaders({ webhookId: 'a1b2', attempt: 1, body, signingSecret: current, previousSigningSecret: null, signatureHeader: 'X-Service-Signature', now })).not.toHaveProperty('X-Service-Signature-New');
  });

  it('uses the configured name for the hex signature', () => {
    const headers = webhookHeaders({ webhookId: 'x', attempt: 1, body, signingSecret: 'whsec_c2VjcmV0', signatureHeader: 'X-Yemekkurye-Signature', now });
    expect(headers['X-Yemekkurye-Signature']).toMatch(/^[0-9a-f]{64}$/);
    expect(headers).not.toHaveProperty('X-Service-Signature');
  });

  it('has no signature headers when signing is off', () => {
    const headers = webhookHeaders({ webhookId: 'x', attempt: 1, body, signingSecret: null, signatureHeader: 'X-Service-Signature', now });
    expect(Object.keys(headers).sort()).toEqual(['Content-Type', 'User-Agent', 'X-Webhook-Attempt', 'X-Webhook-Id', 'webhook-id', 'webhook-timestamp']);
  });

  it('carries the correlation id of the change when there is one, and no empty header otherwise', () => {
    const headers = webhookHeaders({ webhookId: 'x', attempt: 2, body, signingSecret: null, signatureHeader: 'X-Service-Signature', now, correlationId: 'req-42' });
    expect(headers['X-Correlation-Id']).toBe('req-42');
    for (const correlationId of [null, undefined, '']) {
      expect(webhookHeaders({ webhookId: 'x', attempt: 1, body, signingSecret: null, signatureHeader: 'X-Service-Signature', now, correlationId })).not.toHaveProperty('X-Correlation-Id');
    }
  });
});
