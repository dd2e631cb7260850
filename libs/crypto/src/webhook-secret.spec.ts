import { generateWebhookSigningSecret, webhookSecretKeyBytes } from './webhook-secret';

describe('webhook signing secrets', () => {
  it('are whsec_ + base64 of 32 random bytes', () => {
    const secret = generateWebhookSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(webhookSecretKeyBytes(secret)).toHaveLength(32);
    expect(generateWebhookSigningSecret()).not.toBe(secret);
  });

  it('fall back to the UTF-8 bytes of a secret without the prefix', () => {
    expect(webhookSecretKeyBytes('plain')).toEqual(Buffer.from('plain'));
  });
});
