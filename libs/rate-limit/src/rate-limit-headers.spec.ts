import { ProblemException } from '@courier/http';
import { rateLimitExceeded, rateLimitHeaders } from './rate-limit-headers';

describe('rateLimitHeaders', () => {
  it('writes the policy and the current limit as structured fields, with Retry-After the same seconds', () => {
    expect(rateLimitHeaders({ name: 'failures', quota: 20, windowSeconds: 60 }, 17)).toEqual({
      'RateLimit-Policy': '"failures";q=20;w=60',
      RateLimit: '"failures";r=0;t=17',
      'Retry-After': '17',
    });
  });

  it('rounds the reset up to whole seconds, at least 1, and never reports a negative remainder', () => {
    const headers = rateLimitHeaders({ name: 'account-checks', quota: 30, windowSeconds: 3600 }, 0.2, -3);
    expect(headers.RateLimit).toBe('"account-checks";r=0;t=1');
    expect(headers['Retry-After']).toBe('1');
    expect(rateLimitHeaders({ name: 'orders', quota: 600, windowSeconds: 60 }, 59.01, 4).RateLimit).toBe('"orders";r=4;t=60');
  });

  it('refuses a policy name a structured-field string would have to escape', () => {
    expect(() => rateLimitHeaders({ name: 'bad"name', quota: 1, windowSeconds: 60 }, 1)).toThrow(/policy name/);
    expect(() => rateLimitHeaders({ name: 'Failures', quota: 1, windowSeconds: 60 }, 1)).toThrow(/policy name/);
  });
});

describe('rateLimitExceeded', () => {
  it('is a 429 RATE_LIMIT_EXCEEDED problem carrying the headers', () => {
    const problem = rateLimitExceeded('Too many.', { name: 'redeliveries', quota: 10, windowSeconds: 60 }, 42);
    expect(problem).toBeInstanceOf(ProblemException);
    expect(problem.getStatus()).toBe(429);
    expect(problem.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(problem.headers).toEqual({ 'RateLimit-Policy': '"redeliveries";q=10;w=60', RateLimit: '"redeliveries";r=0;t=42', 'Retry-After': '42' });
  });
});
