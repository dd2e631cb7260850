import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { checkPlatformBPluginAuthorization } from './yemeksepeti.plugin-auth';

const SECRET = 'plugin-secret-0123456789';
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function bearer(claims: Record<string, unknown>, alg = 'HS256', secret = SECRET, header: Record<string, unknown> = {}): string {
  const unsigned = `${b64({ alg, typ: 'JWT', ...header })}.${b64(claims)}`;
  const hash = ({ HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' } as Record<string, string>)[alg] ?? 'sha256';
  return `Bearer ${unsigned}.${createHmac(hash, secret).update(unsigned).digest('base64url')}`;
}

describe('checkPlatformBPluginAuthorization (the middleware\'s JWT on every plugin call)', () => {
  const now = Date.now();

  it('accepts the POS Plugin API\'s own example (HS512, service middleware, secret "123")', async () => {
    const example = JSON.parse(readFileSync(path.join(__dirname, 'examples/plugin-jwt.json'), 'utf8')).body;
    expect(await checkPlatformBPluginAuthorization(example.authorization, example.secret)).toEqual({ ok: true });
    expect(await checkPlatformBPluginAuthorization(example.authorization, SECRET)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it.each(['HS256', 'HS384', 'HS512'])('accepts %s with service middleware, with or without exp', async (alg) => {
    expect(await checkPlatformBPluginAuthorization(bearer({ service: 'middleware' }, alg), SECRET, now)).toEqual({ ok: true });
    expect(await checkPlatformBPluginAuthorization(bearer({ service: 'middleware', exp: Math.floor(now / 1000) + 60 }, alg), SECRET, now)).toEqual({ ok: true });
  });

  it('refuses alg none, other algorithms, a wrong signature, a wrong or missing service claim, an expired exp, malformed and missing tokens', async () => {
    const none = `Bearer ${b64({ alg: 'none' })}.${b64({ service: 'middleware' })}.`;
    expect(await checkPlatformBPluginAuthorization(none, SECRET, now)).toMatchObject({ ok: false });
    expect(await checkPlatformBPluginAuthorization(`Bearer ${b64({ alg: 'none' })}.${b64({ service: 'middleware' })}.x`, SECRET, now)).toEqual({ ok: false, reason: 'unsupported_alg' });
    expect(await checkPlatformBPluginAuthorization(bearer({ service: 'middleware' }, 'RS256'), SECRET, now)).toEqual({ ok: false, reason: 'unsupported_alg' });
    expect(await checkPlatformBPluginAuthorization(bearer({ service: 'middleware' }, 'HS256', 'another-secret-0000'), SECRET, now)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(await checkPlatformBPluginAuthorization(bearer({ service: 'pos' }), SECRET, now)).toEqual({ ok: false, reason: 'wrong_service' });
    expect(await checkPlatformBPluginAuthorization(bearer({}), SECRET, now)).toEqual({ ok: false, reason: 'wrong_service' });
    expect(await checkPlatformBPluginAuthorization(bearer({ service: 'middleware', exp: Math.floor(now / 1000) - 120 }), SECRET, now)).toEqual({ ok: false, reason: 'expired' });
    expect(await checkPlatformBPluginAuthorization('Bearer not-a-jwt', SECRET, now)).toEqual({ ok: false, reason: 'malformed' });
    expect(await checkPlatformBPluginAuthorization(SECRET, SECRET, now)).toEqual({ ok: false, reason: 'missing' });
    expect(await checkPlatformBPluginAuthorization(undefined, SECRET, now)).toEqual({ ok: false, reason: 'missing' });
    expect(await checkPlatformBPluginAuthorization(['Bearer x'], SECRET, now)).toEqual({ ok: false, reason: 'missing' });
  });

  it('allows a small clock skew on exp, and nothing is accepted without a configured secret', async () => {
    expect(await checkPlatformBPluginAuthorization(bearer({ service: 'middleware', exp: Math.floor(now / 1000) - 5 }), SECRET, now)).toEqual({ ok: true });
    expect(await checkPlatformBPluginAuthorization(bearer({ service: 'middleware' }, 'HS256', ''), undefined, now)).toEqual({ ok: false, reason: 'not_configured' });
  });

  it('refuses a correctly signed token whose crit header names an extension we do not understand (RFC 7515 4.1.11), and a malformed crit', async () => {
    const claims = { service: 'middleware' };
    expect(await checkPlatformBPluginAuthorization(bearer(claims, 'HS256', SECRET, { crit: ['x-dh-ext'], 'x-dh-ext': true }), SECRET, now)).toEqual({ ok: false, reason: 'unsupported_crit' });
    expect(await checkPlatformBPluginAuthorization(bearer(claims, 'HS512', SECRET, { crit: ['exp'], exp: 1 }), SECRET, now)).toMatchObject({ ok: false });
    expect(await checkPlatformBPluginAuthorization(bearer(claims, 'HS256', SECRET, { crit: [] }), SECRET, now)).toEqual({ ok: false, reason: 'malformed' });
    expect(await checkPlatformBPluginAuthorization(bearer(claims, 'HS256', SECRET, { crit: 'x-dh-ext' }), SECRET, now)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('refuses a token not valid yet (nbf), a non-numeric exp, and accepts only the HMAC allow-list (no none, RS256, ES256, HS1)', async () => {
    expect(await checkPlatformBPluginAuthorization(bearer({ service: 'middleware', nbf: Math.floor(now / 1000) + 120 }), SECRET, now)).toEqual({ ok: false, reason: 'not_yet_valid' });
    expect(await checkPlatformBPluginAuthorization(bearer({ service: 'middleware', exp: 'tomorrow' }), SECRET, now)).toEqual({ ok: false, reason: 'expired' });
    for (const alg of ['none', 'RS256', 'ES256', 'PS256', 'HS1', 'hs256']) {
      expect({ alg, checked: await checkPlatformBPluginAuthorization(bearer({ service: 'middleware' }, alg), SECRET, now) }).toEqual({ alg, checked: { ok: false, reason: 'unsupported_alg' } });
    }
    expect(await checkPlatformBPluginAuthorization(`Bearer ${b64({ typ: 'JWT' })}.${b64({ service: 'middleware' })}.x`, SECRET, now)).toEqual({ ok: false, reason: 'malformed' });
  });
});
