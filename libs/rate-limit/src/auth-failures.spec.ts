import { authAttemptRefused, clientAddressKey, keyIdKey } from './auth-failures';

describe('authAttemptRefused', () => {
  const limits = { perAddress: 5, perKey: 10 };

  it('refuses an address once it failed as often as its limit allows', () => {
    expect(authAttemptRefused({ address: 4 }, limits)).toBe(false);
    expect(authAttemptRefused({ address: 5 }, limits)).toBe(true);
    expect(authAttemptRefused({ address: 5, key: 0 }, limits)).toBe(true);
  });

  it('closes a key over its limit only to addresses that failed themselves, never to its owner elsewhere', () => {
    expect(authAttemptRefused({ address: 0, key: 10 }, limits)).toBe(false);
    expect(authAttemptRefused({ address: 1, key: 10 }, limits)).toBe(true);
    expect(authAttemptRefused({ address: 1, key: 9 }, limits)).toBe(false);
  });
});

describe('clientAddressKey', () => {
  it('counts IPv4 as is, IPv4-mapped IPv6 as IPv4, IPv6 by its /64', () => {
    expect(clientAddressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('2001:db8:0:1::5')).toBe('2001:db8:0:1::/64');
    expect(clientAddressKey('2001:db8:0:1:ffff:1:2:3')).toBe('2001:db8:0:1::/64');
    expect(clientAddressKey('2001:0db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientAddressKey('::1')).toBe('0:0:0:0::/64');
    expect(clientAddressKey(undefined)).toBe('unknown');
  });
});

describe('keyIdKey', () => {
  it('stores a hash, not the key', () => {
    expect(keyIdKey('key_abc')).toMatch(/^[0-9a-f]{32}$/);
    expect(keyIdKey('key_abc')).not.toContain('key_abc');
    expect(keyIdKey('key_abc')).not.toBe(keyIdKey('key_abd'));
  });
});
