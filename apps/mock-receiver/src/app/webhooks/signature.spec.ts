import { Webhook } from 'standardwebhooks';
import {
  serviceSignature,
  signatureRefusal,
  standardWebhooksKey,
  verifyServiceSignature,
  verifySignatures,
  verifyStandardWebhooksSignature,
} from './signature';

const SECRET = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
const BODY = Buffer.from('{"event":"order.status_changed","orderId":"o-1","note":"Müşteri"}', 'utf8');

function standardHeaders(body: Buffer | string, secret = SECRET, at = new Date(), id = 'msg_1') {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, at, body.toString()),
  };
}

describe('X-Service-Signature', () => {
  it('is the lowercase hex HMAC-SHA256 of the bytes keyed with the secret string (RFC 4231 case 2)', () => {
    expect(serviceSignature('what do ya want for nothing?', 'Jefe')).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  it('accepts the right signature, in either case', () => {
    const signature = serviceSignature(BODY, SECRET);
    expect(verifyServiceSignature(BODY, signature, SECRET).state).toBe('valid');
    expect(verifyServiceSignature(BODY, signature.toUpperCase(), SECRET).state).toBe('valid');
  });

  it('refuses a signature of other bytes, of another secret, or not hex', () => {
    expect(verifyServiceSignature(Buffer.from(`${BODY.toString()} `), serviceSignature(BODY, SECRET), SECRET).state).toBe('invalid');
    expect(verifyServiceSignature(BODY, serviceSignature(BODY, 'other'), SECRET).state).toBe('invalid');
    expect(verifyServiceSignature(BODY, 'sha256=abc', SECRET).state).toBe('invalid');
  });

  it('reports a missing header when a secret is set, and checks nothing without a secret', () => {
    expect(verifyServiceSignature(BODY, undefined, SECRET).state).toBe('missing');
    expect(verifyServiceSignature(BODY, 'deadbeef', '')).toEqual({ state: 'not-checked', detail: 'present; no WEBHOOK_SECRET configured' });
  });
});

describe('Standard Webhooks signature', () => {
  it('uses the decoded bytes of a whsec_ secret as key, and nothing else', () => {
    expect(Buffer.from(standardWebhooksKey(SECRET)!).toString()).toBe('0123456789abcdef0123456789abcdef');
    expect(standardWebhooksKey('plain-secret')).toBeUndefined();
    expect(standardWebhooksKey('whsec_not base64!')).toBeUndefined();
    expect(standardWebhooksKey('whsec_')).toBeUndefined();
  });

  it('accepts a signature made by the standardwebhooks library', () => {
    expect(verifyStandardWebhooksSignature(BODY, standardHeaders(BODY), SECRET)).toEqual({ state: 'valid', detail: 'v1 signature matches' });
  });

  it('refuses a changed body, an incomplete header set, and a timestamp older than 5 minutes', () => {
    const headers = standardHeaders(BODY);
    expect(verifyStandardWebhooksSignature(Buffer.from('{}'), headers, SECRET).state).toBe('invalid');
    expect(verifyStandardWebhooksSignature(BODY, { 'webhook-id': 'msg_1' }, SECRET).state).toBe('invalid');
    const old = standardHeaders(BODY, SECRET, new Date(Date.now() - 10 * 60_000));
    expect(verifyStandardWebhooksSignature(BODY, old, SECRET)).toEqual({ state: 'invalid', detail: 'Message timestamp too old' });
  });

  it('is missing without headers, and not checked when the secret is not in the whsec_ form', () => {
    expect(verifyStandardWebhooksSignature(BODY, {}, SECRET).state).toBe('missing');
    expect(verifyStandardWebhooksSignature(BODY, standardHeaders(BODY), 'plain-secret').state).toBe('not-checked');
  });
});

describe('signatureRefusal', () => {
  it('accepts anything without a secret', () => {
    expect(signatureRefusal(verifySignatures(BODY, {}, ''), '')).toBeUndefined();
  });

  it('requires a valid X-Service-Signature when a secret is set', () => {
    expect(signatureRefusal(verifySignatures(BODY, {}, SECRET), SECRET)).toMatch(/X-Service-Signature/);
    const headers = { 'x-service-signature': serviceSignature(BODY, SECRET), ...standardHeaders(BODY) };
    expect(signatureRefusal(verifySignatures(BODY, headers, SECRET), SECRET)).toBeUndefined();
  });

  it('requires the Standard Webhooks signature with a whsec_ secret: dropping the webhook-* headers does not skip the replay check', () => {
    const serviceOnly = { 'x-service-signature': serviceSignature(BODY, SECRET) };
    expect(signatureRefusal(verifySignatures(BODY, serviceOnly, SECRET), SECRET)).toMatch(/^Standard Webhooks signature: webhook-id, webhook-timestamp and webhook-signature are required/);
    const replayed = { ...serviceOnly, ...standardHeaders(BODY, SECRET, new Date(Date.now() - 10 * 60_000)) };
    expect(signatureRefusal(verifySignatures(BODY, replayed, SECRET), SECRET)).toMatch(/too old/);
    // A secret not in the whsec_ form cannot key that scheme: X-Service-Signature alone is enough.
    expect(signatureRefusal(verifySignatures(BODY, { 'x-service-signature': serviceSignature(BODY, 'plain-secret') }, 'plain-secret'), 'plain-secret')).toBeUndefined();
  });

  it('refuses a wrong Standard Webhooks signature even next to a right X-Service-Signature', () => {
    const headers = { 'x-service-signature': serviceSignature(BODY, SECRET), ...standardHeaders('{"other":1}') };
    expect(signatureRefusal(verifySignatures(BODY, headers, SECRET), SECRET)).toMatch(/Standard Webhooks/);
  });
});

describe('during a secret rotation grace period (both secrets sign)', () => {
  const OLD = `whsec_${Buffer.from('the-previous-secret-0123456789abc').toString('base64')}`;
  // As webhook-sender sends it: X-Service-Signature the previous secret's, X-Service-Signature-New the
  // new one's, webhook-signature one v1 entry per secret, space-delimited (Standard Webhooks).
  const rotationHeaders = (at = new Date()) => {
    const timestamp = String(Math.floor(at.getTime() / 1000));
    return {
      'x-service-signature': serviceSignature(BODY, OLD),
      'x-service-signature-new': serviceSignature(BODY, SECRET),
      'webhook-id': 'msg_rot',
      'webhook-timestamp': timestamp,
      'webhook-signature': `${new Webhook(SECRET).sign('msg_rot', at, BODY.toString())} ${new Webhook(OLD).sign('msg_rot', at, BODY.toString())}`,
    };
  };

  it('a receiver holding either the new or the old secret accepts the webhook', () => {
    for (const secret of [SECRET, OLD]) {
      const verdicts = verifySignatures(BODY, rotationHeaders(), secret);
      expect(verdicts.serviceSignature.state).toBe('valid');
      expect(verdicts.standardWebhooks).toEqual({ state: 'valid', detail: 'v1 signature matches' });
      expect(signatureRefusal(verdicts, secret)).toBeUndefined();
    }
    expect(verifySignatures(BODY, rotationHeaders(), SECRET).serviceSignature.detail).toMatch(/X-Service-Signature-New/);
  });

  it('a receiver holding a third secret refuses it, and X-Service-Signature-New does not rescue a changed body', () => {
    const other = `whsec_${Buffer.from('neither-of-the-two-secrets-012345').toString('base64')}`;
    expect(signatureRefusal(verifySignatures(BODY, rotationHeaders(), other), other)).toMatch(/X-Service-Signature/);
    expect(verifySignatures(Buffer.from('{"changed":true}'), rotationHeaders(), SECRET).serviceSignature.state).toBe('invalid');
  });
});
