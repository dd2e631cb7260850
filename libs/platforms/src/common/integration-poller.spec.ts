import { nextPollAt, REFUSED_POLL_BACKOFF_FACTOR } from './integration-poller';

describe('nextPollAt', () => {
  const from = Date.parse('2026-01-01T12:00:00.000Z');
  const after = (ms: number) => new Date(from + ms);

  it('polls again after the interval when the poll went through', () => {
    expect(nextPollAt({ kind: 'ok' }, 30_000, from)).toEqual(after(30_000));
  });

  it("after an unavailable platform, the interval or the platform's wait, whichever is longer", () => {
    expect(nextPollAt({ kind: 'retry' }, 30_000, from)).toEqual(after(30_000));
    expect(nextPollAt({ kind: 'retry', retryAfterMs: 5_000 }, 30_000, from)).toEqual(after(30_000));
    expect(nextPollAt({ kind: 'retry', retryAfterMs: 120_000 }, 30_000, from)).toEqual(after(120_000));
  });

  it('after a refused poll (credentials), much later, whatever the platform asks', () => {
    expect(nextPollAt({ kind: 'failed', retryAfterMs: 1_000_000 }, 30_000, from)).toEqual(after(30_000 * REFUSED_POLL_BACKOFF_FACTOR));
  });
});
