import { RATE_LIMIT_HOUR_MS, secondsLeftInWindow, windowStartOf } from './rate-limit.store';

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

describe('fixed one-hour windows', () => {
  it('start on the hour and tell how long is left of them', () => {
    const hour = Date.UTC(2026, 0, 1, 12);
    expect(windowStartOf(hour + 59 * 60_000, RATE_LIMIT_HOUR_MS)).toBe(hour);
    expect(windowStartOf(hour + RATE_LIMIT_HOUR_MS, RATE_LIMIT_HOUR_MS)).toBe(hour + RATE_LIMIT_HOUR_MS);
    expect(secondsLeftInWindow(hour + 30 * 60_000, RATE_LIMIT_HOUR_MS)).toBe(1800);
  });
});
