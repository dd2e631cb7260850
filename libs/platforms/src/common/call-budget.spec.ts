import { bookCallBudget, budgetScopesOf, CallBudget } from './call-budget';

/** The most requests any window of `windowMs` holds (windows (t - windowMs, t] ending at each call). */
function fullestWindow(calls: number[], windowMs: number): number {
  return Math.max(0, ...calls.map((end) => calls.filter((call) => call > end - windowMs && call <= end).length));
}

describe('bookCallBudget', () => {
  it('books now when the scope has room', () => {
    expect(bookCallBudget([{ limit: 3, windowMs: 100, calls: [10, 20], count: 1 }], 30)).toEqual({ at: 30, calls: [[10, 20, 30]] });
  });

  it('books when the oldest call it needs has left the window', () => {
    expect(bookCallBudget([{ limit: 3, windowMs: 100, calls: [0, 10, 20], count: 1 }], 30).at).toBe(100);
    // Two requests need two places: the second oldest must leave.
    expect(bookCallBudget([{ limit: 3, windowMs: 100, calls: [0, 10, 20], count: 2 }], 30).at).toBe(110);
  });

  it('never books before the latest booking (first come, first served)', () => {
    expect(bookCallBudget([{ limit: 3, windowMs: 100, calls: [500], count: 1 }], 30).at).toBe(500);
  });

  it('books when every scope has room, and adds the call to each', () => {
    const booking = bookCallBudget(
      [
        { limit: 5, windowMs: 100, calls: [0], count: 2 },
        { limit: 1, windowMs: 1_000, calls: [40], count: 1 },
      ],
      50,
    );
    expect(booking).toEqual({ at: 1_040, calls: [[1_040, 1_040], [1_040]] });
  });

  it('keeps the calls of the window only, the last `limit` of them', () => {
    expect(bookCallBudget([{ limit: 3, windowMs: 100, calls: [0, 60, 70], count: 1 }], 150)).toEqual({ at: 150, calls: [[60, 70, 150]] });
    expect(bookCallBudget([{ limit: 2, windowMs: 100, calls: [60, 70], count: 1 }], 150)).toEqual({ at: 160, calls: [[70, 160]] });
  });

  it('refuses a call that can never fit', () => {
    expect(() => bookCallBudget([{ limit: 1, windowMs: 100, calls: [], count: 2 }], 0)).toThrow(RangeError);
  });

  it('never lets a window hold more than the limit, and wastes no room, over random bursts', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    for (let round = 0; round < 50; round += 1) {
      const limit = 1 + Math.floor(random() * 6);
      const windowMs = 10 + Math.floor(random() * 90);
      let log: number[] = [];
      const booked: number[] = [];
      let now = 0;
      for (let call = 0; call < 60; call += 1) {
        now += Math.floor(random() * 15);
        const count = 1 + Math.floor(random() * limit);
        const booking = bookCallBudget([{ limit, windowMs, calls: log, count }], now);
        expect(booking.at).toBeGreaterThanOrEqual(now);
        // The earliest slot: one millisecond before it the window would have been over the limit (or before now / the latest booking).
        const earlier = [...booked, ...Array<number>(count).fill(booking.at - 1)];
        if (booking.at > now && booking.at - 1 >= (booked.at(-1) ?? -Infinity)) expect(fullestWindow(earlier, windowMs)).toBeGreaterThan(limit);
        booked.push(...Array<number>(count).fill(booking.at));
        log = booking.calls[0];
        expect(fullestWindow(booked, windowMs)).toBeLessThanOrEqual(limit);
      }
    }
  });
});

describe('budgetScopesOf', () => {
  const budget: CallBudget = {
    scopes: [
      { name: 'token', limit: 10, windowMs: 1_000, requests: { VERIFY: 1, CANCEL: 2 } },
      { name: 'cancel-options', limit: 2, windowMs: 1_000, requests: { CANCEL: 1 } },
    ],
  };

  it('names the scopes an action makes requests in, with how many', () => {
    expect(budgetScopesOf(budget, 'CANCEL').map(({ scope, count }) => [scope.name, count])).toEqual([['token', 2], ['cancel-options', 1]]);
    expect(budgetScopesOf(budget, 'VERIFY').map(({ scope, count }) => [scope.name, count])).toEqual([['token', 1]]);
    expect(budgetScopesOf(budget, 'DELIVER')).toEqual([]);
    expect(budgetScopesOf(undefined, 'VERIFY')).toEqual([]);
  });
});
