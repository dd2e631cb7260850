import { authAttemptRefusal, clientAddressKey, keyIdKey } from './auth-failures';

describe('authAttemptRefusal', () => {
  const limits = { perAddress: 5, perKey: 10 };

  it('refuses an address once it failed as often as its limit allows', () => {
    expect(authAttemptRefusal({ address: 4 }, limits)).toBeUndefined();
    expect(authAttemptRefusal({ address: 5 }, limits)).toBe('address');
    expect(authAttemptRefusal({ address: 5, key: 0 }, limits)).toBe('address');
  });

  it('closes a key over its limit only to addresses that failed themselves, never to its owner elsewhere', () => {
    expect(authAttemptRefusal({ address: 0, key: 10 }, limits)).toBeUndefined();
    expect(authAttemptRefusal({ address: 1, key: 10 }, limits)).toBe('key');
    expect(authAttemptRefusal({ address: 1, key: 9 }, limits)).toBeUndefined();
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
