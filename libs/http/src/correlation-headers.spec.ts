import { withCorrelationId } from '@courier/logging';
import { correlationHeaders } from './correlation-headers';

describe('correlationHeaders', () => {
  it('carries the current correlation id, across awaits, and nothing outside a scope', async () => {
    expect(correlationHeaders()).toEqual({});
    const inside = await withCorrelationId('abc', async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return correlationHeaders();
    });
    expect(inside).toEqual({ 'X-Correlation-Id': 'abc' });
    expect(correlationHeaders()).toEqual({});
  });

  it('is what a receiver sees on an outbound call made while handling a message', async () => {
    const seen: Array<string | undefined> = [];
    const send = async (headers: Record<string, string>) => void seen.push(new Headers(headers).get('x-correlation-id') ?? undefined);
    await withCorrelationId('msg-7', () => send({ ...correlationHeaders(), 'Content-Type': 'application/json' }));
    await send(correlationHeaders());
    expect(seen).toEqual(['msg-7', undefined]);
  });
});
