import { secondsLeftInWindow, windowStartOf } from './rate-limit.store';

describe('fixed one-minute windows', () => {
  it('start on the minute and tell how long is left of them, at least 1 s', () => {
    const minute = Date.UTC(2026, 0, 1, 12, 30);
    expect(windowStartOf(minute + 59_999)).toBe(minute);
    expect(windowStartOf(minute + 60_000)).toBe(minute + 60_000);
    expect(secondsLeftInWindow(minute)).toBe(60);
    expect(secondsLeftInWindow(minute + 45_200)).toBe(15);
    expect(secondsLeftInWindow(minute + 59_999)).toBe(1);
  });
});
