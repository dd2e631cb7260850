import { constantTimeEqual, generateToken, hashCredential } from './credentials';

describe('generateToken', () => {
  it('gives base64url of the requested random bytes, after the prefix', () => {
    const token = generateToken(32, 'cik_');
    expect(token).toMatch(/^cik_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token.slice(4), 'base64url')).toHaveLength(32);
    expect(generateToken(48)).toMatch(/^[A-Za-z0-9_-]{64}$/);
  });

  it('never repeats', () => {
    const seen = new Set(Array.from({ length: 1000 }, () => generateToken()));
    expect(seen.size).toBe(1000);
  });

  it('refuses fewer than 32 bytes of entropy', () => {
    expect(() => generateToken(16)).toThrow(RangeError);
    expect(() => generateToken(32.5)).toThrow(RangeError);
  });
});

describe('hashCredential', () => {
  it('is SHA-256 hex, deterministic, and different for different inputs', () => {
    expect(hashCredential('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashCredential('abc')).toBe(hashCredential('abc'));
    expect(hashCredential('abd')).not.toBe(hashCredential('abc'));
  });
});

describe('constantTimeEqual', () => {
  it('compares strings of any lengths', () => {
    expect(constantTimeEqual('same', 'same')).toBe(true);
    expect(constantTimeEqual('same', 'Same')).toBe(false);
    expect(constantTimeEqual('short', 'much longer value')).toBe(false);
    expect(constantTimeEqual('', '')).toBe(true);
    expect(constantTimeEqual('', 'x')).toBe(false);
    expect(constantTimeEqual('ü', 'ü')).toBe(true);
  });
});
