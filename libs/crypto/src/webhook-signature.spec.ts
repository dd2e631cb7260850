import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { generateWebhookSigningSecret } from './webhook-secret';
import { serviceSignature, standardWebhookSignature } from './webhook-signature';

describe('webhook signatures', () => {
  const body = '{"event":"order.status_changed","orderId":"pos-1","status":"VALIDATED","reason":"Müşteri iptal etti 🍕"}';

  it('X-Service-Signature is the lowercase hex HMAC-SHA256 of the bytes, keyed with the whole secret string', () => {
    // RFC 4231, test case 2: key "Jefe", data "what do ya want for nothing?".
    expect(serviceSignature('Jefe', 'what do ya want for nothing?')).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
    const secret = generateWebhookSigningSecret();
    const expected = createHmac('sha256', secret).update(Buffer.from(body, 'utf8')).digest('hex');
    expect(serviceSignature(secret, body)).toBe(expected);
    expect(serviceSignature(secret, Buffer.from(body, 'utf8'))).toBe(expected);
    expect(serviceSignature(secret, body)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('the Standard Webhooks signature verifies with the standardwebhooks library and equals its own', () => {
    const secret = generateWebhookSigningSecret();
    const id = '6f1c3c3e-8a43-4f7e-9d3c-0c1b2a3d4e5f';
    const now = new Date();
    const timestamp = Math.floor(now.getTime() / 1000);
    const signature = standardWebhookSignature(secret, id, timestamp, body);
    expect(signature).toBe(new Webhook(secret).sign(id, new Date(timestamp * 1000), body));
    expect(new Webhook(secret).verify(body, { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature })).toEqual(JSON.parse(body));
  });

  it('a signature over other bytes, id, timestamp or secret does not verify', () => {
    const secret = generateWebhookSigningSecret();
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = { 'webhook-id': 'a', 'webhook-timestamp': String(timestamp), 'webhook-signature': standardWebhookSignature(secret, 'a', timestamp, body) };
    const webhook = new Webhook(secret);
    expect(() => webhook.verify(body.replace('VALIDATED', 'DELIVERED'), headers)).toThrow();
    expect(() => webhook.verify(body, { ...headers, 'webhook-id': 'b' })).toThrow();
    expect(() => webhook.verify(body, { ...headers, 'webhook-timestamp': String(timestamp + 1) })).toThrow();
    expect(() => new Webhook(generateWebhookSigningSecret()).verify(body, headers)).toThrow();
    expect(serviceSignature(secret, body)).not.toBe(serviceSignature(generateWebhookSigningSecret(), body));
  });
});
