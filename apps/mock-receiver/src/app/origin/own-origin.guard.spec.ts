import { ConfigurationError } from '@courier/config';
import { normaliseReceiverConfig } from '../receiver.config';
import { allowedHosts, parseHost } from './own-origin.guard';

describe("the receiver's own host names", () => {
  it('parses a Host header: name, IPv6 literal, port or the default port', () => {
    expect(parseHost('LocalHost:4444')).toEqual({ name: 'localhost', port: 4444 });
    expect(parseHost('[::1]:4444')).toEqual({ name: '[::1]', port: 4444 });
    expect(parseHost('mock.courier.example', 80)).toEqual({ name: 'mock.courier.example', port: 80 });
    for (const bad of ['', 'user@localhost:4444', 'localhost:4444/x', 'local host', '::1']) expect(parseHost(bad)).toBeUndefined();
  });

  it('reads RECEIVER_ALLOWED_HOSTS as names (any port) or name:port, and refuses anything else at start', () => {
    expect(allowedHosts(' mock.courier.example , proxy:8080,')).toEqual([{ name: 'mock.courier.example' }, { name: 'proxy', port: 8080 }]);
    expect(allowedHosts(undefined)).toEqual([]);
    expect(normaliseReceiverConfig({ RECEIVER_ALLOWED_HOSTS: 'a.example,[::1]:8080' }).RECEIVER_ALLOWED_HOSTS).toBe('a.example,[::1]:8080');
    expect(() => normaliseReceiverConfig({ RECEIVER_ALLOWED_HOSTS: 'http://a.example' })).toThrow(ConfigurationError);
    expect(() => normaliseReceiverConfig({ RECEIVER_ALLOWED_HOSTS: '*' })).toThrow(/RECEIVER_ALLOWED_HOSTS must be/);
  });
});
