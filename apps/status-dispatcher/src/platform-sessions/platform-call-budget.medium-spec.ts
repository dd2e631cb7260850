import fc from 'fast-check';
import { bookCallBudget } from '@courier/platforms';
import { DispatcherMedium, startDispatcherMedium } from '../../test/medium';
import { ScopeBookingNow, scopeBookingNowSql } from './platform-call-budget.repository';

/**
 * The booking a push makes in its own statement (scopeBookingNowSql) is bookCallBudget's rule at
 * the push's time on one scope: booked exactly when bookCallBudget would book the call at that time
 * itself, with the same log afterwards; otherwise the log is left as it was.
 */
describe('scopeBookingNowSql (a call booked in the statement that claims it)', () => {
  let m: DispatcherMedium;

  beforeAll(async () => {
    m = await startDispatcherMedium();
  });
  afterAll(() => m?.close());

  async function bookInSql(booking: ScopeBookingNow): Promise<{ booked: boolean; calls: number[] }> {
    const booked = await m.db.sql(`WITH booked AS (${scopeBookingNowSql('$1::jsonb', '(SELECT 1) AS one')}) SELECT scope FROM booked`, [JSON.stringify(booking)]);
    const [row] = await m.db.sql<{ calls: string[] }>('SELECT calls FROM platform_call_budgets WHERE scope = $1', [booking.scope]);
    return { booked: booked.length === 1, calls: row.calls.map(Number) };
  }

  /** A scope's log as bookings leave it (ascending, at most `limit` calls), and a time: often one where a logged call leaves the window, or the last call's own. */
  const scopeAndLog = fc
    .record({ limit: fc.integer({ min: 1, max: 6 }), windowMs: fc.integer({ min: 1, max: 2_000 }) })
    .chain(({ limit, windowMs }) =>
      fc.record({
        limit: fc.constant(limit),
        windowMs: fc.constant(windowMs),
        count: fc.integer({ min: 1, max: limit }),
        calls: fc.array(fc.integer({ min: 0, max: 3_000 }), { maxLength: limit }).map((calls) => calls.sort((a, b) => a - b)),
      }),
    )
    .chain((scope) =>
      fc.record({
        at: fc.oneof(
          fc.integer({ min: 0, max: 5_000 }),
          fc.tuple(fc.nat(), fc.constantFrom(0, scope.windowMs), fc.integer({ min: -1, max: 1 })).map(([index, after, step]) => (scope.calls.length === 0 ? 0 : scope.calls[index % scope.calls.length] + after + step)),
        ),
      }).map(({ at }) => ({ ...scope, at: Math.max(0, at) })),
    );

  it('books exactly when bookCallBudget books at the same time, leaving the same log', async () => {
    const base = 1_800_000_000_000;
    let key = 0;
    await fc.assert(
      fc.asyncProperty(scopeAndLog, async ({ limit, windowMs, count, calls, at }) => {
        const scope = `TEST:scope:${(key += 1)}`;
        const logged = calls.map((call) => base + call);
        await m.db.sql('INSERT INTO platform_call_budgets (scope, calls) VALUES ($1, $2::bigint[])', [scope, logged]);
        const expected = bookCallBudget([{ limit, windowMs, calls: logged, count }], base + at);
        const roomNow = expected.at === base + at;

        const result = await bookInSql({ scope, limit, windowMs, count, at: base + at });

        expect(result).toEqual({ booked: roomNow, calls: roomNow ? expected.calls[0] : logged });
      }),
      { numRuns: 150 },
    );
  });

  it('creates a missing scope with the call booked', async () => {
    await expect(bookInSql({ scope: 'TEST:new-scope', limit: 5, windowMs: 1_000, count: 2, at: 1_800_000_000_000 })).resolves.toEqual({ booked: true, calls: [1_800_000_000_000, 1_800_000_000_000] });
  });
});
