import { ReadBackLimiter } from './migros-yemek.read-backs';

describe('ReadBackLimiter (unauthenticated PLATFORM_D webhooks read back per store)', () => {
  it('allows `limit` read-backs of a store in any window, counts stores apart, and frees room as the window moves on', () => {
    const limiter = new ReadBackLimiter(3, 60_000);
    for (let i = 0; i < 3; i += 1) expect(limiter.take('store-1', 1_000 + i)).toBe(true);
    expect(limiter.take('store-1', 2_000)).toBe(false);
    expect(limiter.take('store-2', 2_000)).toBe(true);
    // At 61 000 the read-back of 1 000 has left the window: room for one.
    expect(limiter.take('store-1', 61_000)).toBe(true);
    expect(limiter.take('store-1', 61_000)).toBe(false);
    expect(limiter.take('store-1', 61_001)).toBe(true);
  });
});
