import { createHmac } from 'node:crypto';
import { verifyHmacJwt } from './hmac-jwt';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const HASH = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' } as const;

function sign(header: Record<string, unknown>, claims: Record<string, unknown>, secret: string, hash = 'sha256'): string {
  const unsigned = `${b64(header)}.${b64(claims)}`;
  return `${unsigned}.${createHmac(hash, secret).update(unsigned).digest('base64url')}`;
}

describe('verifyHmacJwt', () => {
  // The example of DH's POS Plugin API (security scheme MiddlewareJWTAuth): HS512, { service: "middleware" }, secret "123".
  const SPEC_EXAMPLE = 'eyJ0eXAiOiJKV1QiLCJhbGciOiJIUzUxMiJ9.eyJzZXJ2aWNlIjoibWlkZGxld2FyZSJ9.VKb-yT2Zz2e4j7R5ssXzU0Mj5MrQ7yxP1H1YRPFmlVANhOYwadSk-5GepYUBz19KASD0QjwLTWtOKLR63Y_R9g';

  it('accepts the platform documentation\'s example token with its secret, and no other secret', () => {
    expect(verifyHmacJwt(SPEC_EXAMPLE, '123')).toEqual({ ok: true, algorithm: 'HS512', claims: { service: 'middleware' } });
    expect(verifyHmacJwt(SPEC_EXAMPLE, '1234')).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it.each(Object.entries(HASH))('accepts %s', (alg, hash) => {
    expect(verifyHmacJwt(sign({ alg, typ: 'JWT' }, { a: 1 }, 'secret-1', hash), 'secret-1')).toMatchObject({ ok: true, algorithm: alg, claims: { a: 1 } });
  });

  it('refuses alg none, asymmetric and unknown algorithms, and an alg that does not match the signature', () => {
    const claims = b64({ service: 'middleware' });
    expect(verifyHmacJwt(`${b64({ alg: 'none' })}.${claims}.`, 's')).toEqual({ ok: false, reason: 'malformed' });
    expect(verifyHmacJwt(`${b64({ alg: 'none' })}.${claims}.AAAA`, 's')).toEqual({ ok: false, reason: 'unsupported_alg' });
    expect(verifyHmacJwt(sign({ alg: 'RS256' }, {}, 's'), 's')).toEqual({ ok: false, reason: 'unsupported_alg' });
    expect(verifyHmacJwt(sign({}, {}, 's'), 's')).toEqual({ ok: false, reason: 'unsupported_alg' });
    expect(verifyHmacJwt(sign({ alg: 'HS512' }, {}, 's', 'sha256'), 's')).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('refuses a changed payload and malformed tokens', () => {
    const token = sign({ alg: 'HS256' }, { service: 'middleware' }, 's');
    const [header, , signature] = token.split('.');
    expect(verifyHmacJwt(`${header}.${b64({ service: 'other' })}.${signature}`, 's')).toEqual({ ok: false, reason: 'bad_signature' });
    for (const bad of ['', 'abc', 'a.b', 'a.b.c.d', `${header}.!!.${signature}`, `${b64('x')}.${b64({})}.${signature}`, `${header}.${Buffer.from('{not json').toString('base64url')}.${signature}`]) {
      expect(verifyHmacJwt(bad, 's')).toMatchObject({ ok: false });
    }
    expect(verifyHmacJwt('a.b', 's')).toEqual({ ok: false, reason: 'malformed' });
  });

  it('enforces exp and nbf when present, with the given clock skew', () => {
    const now = 1_700_000_000_000;
    const token = (claims: Record<string, unknown>) => sign({ alg: 'HS256' }, claims, 's');
    expect(verifyHmacJwt(token({ exp: now / 1000 - 10 }), 's', { now })).toEqual({ ok: false, reason: 'expired' });
    expect(verifyHmacJwt(token({ exp: now / 1000 - 10 }), 's', { now, clockSkewMs: 30_000 })).toMatchObject({ ok: true });
    expect(verifyHmacJwt(token({ exp: now / 1000 + 60 }), 's', { now })).toMatchObject({ ok: true });
    expect(verifyHmacJwt(token({ exp: 'tomorrow' }), 's', { now })).toEqual({ ok: false, reason: 'expired' });
    expect(verifyHmacJwt(token({ nbf: now / 1000 + 60 }), 's', { now })).toEqual({ ok: false, reason: 'not_yet_valid' });
    expect(verifyHmacJwt(token({}), 's', { now })).toMatchObject({ ok: true });
  });
});
