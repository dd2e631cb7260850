import { parseTrustProxy } from './trust-proxy';

describe('parseTrustProxy', () => {
  it('reads the forms of Express trust proxy and refuses anything else', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy('loopback, 10.0.0.0/8, fd00::/8')).toEqual(['loopback', '10.0.0.0/8', 'fd00::/8']);
    expect(parseTrustProxy('10.0.0.0/33')).toBeUndefined();
    expect(parseTrustProxy('ingress')).toBeUndefined();
    expect(parseTrustProxy('yes')).toBeUndefined();
  });
});
