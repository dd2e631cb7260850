import type { IncomingMessage } from 'node:http';
import { isJsonMediaType, jsonBodyFilter, routeMatchKey } from './json-body';

const request = (url: string, contentType?: string) => ({ url, headers: contentType ? { 'content-type': contentType } : {} }) as IncomingMessage;

describe('JSON body helpers', () => {
  it('recognise JSON media types as body-parser does', () => {
    expect(isJsonMediaType('application/json')).toBe(true);
    expect(isJsonMediaType('Application/JSON; charset=utf-8')).toBe(true);
    expect(isJsonMediaType('application/problem+json')).toBe(true);
    expect(isJsonMediaType('text/plain')).toBe(false);
    expect(isJsonMediaType('application/jsonx')).toBe(false);
    expect(isJsonMediaType(undefined)).toBe(false);
  });

  it('match paths like the router (case, trailing slash, query)', () => {
    expect(routeMatchKey('/Webhook/Third-Party/Order/?x=1')).toBe('/webhook/third-party/order');
    expect(routeMatchKey('/')).toBe('/');
  });

  it('leave self-parsed paths to their handler', () => {
    const filter = jsonBodyFilter(['/webhook/third-party/order']);
    expect(filter(request('/webhook/third-party/order', 'application/json'))).toBe(false);
    expect(filter(request('/WEBHOOK/third-party/order/', 'application/json'))).toBe(false);
    expect(filter(request('/api/v1/orders', 'application/json'))).toBe(true);
    expect(filter(request('/api/v1/orders', 'text/plain'))).toBe(false);
  });
});
