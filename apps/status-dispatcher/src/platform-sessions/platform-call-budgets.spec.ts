import { ConfigurationError } from '@courier/config';
import { platformClientConfig, PlatformAdapters, PLATFORMS } from '@courier/platforms';
import { parseCallBudgetOverrides, PlatformCallBudgets } from './platform-call-budgets';

const adapters = new PlatformAdapters(platformClientConfig({}), undefined, { platforms: PLATFORMS });
const budgets = (PLATFORM_CALL_BUDGETS?: string) => new PlatformCallBudgets({} as never, adapters, { PLATFORM_CALL_BUDGETS } as never, {} as never);

describe('PlatformCallBudgets.bookNow (a poll\'s request)', () => {
  /** The repository's booking over logs kept in memory (the SQL one locks rows; the plan is the same). */
  function memoryRepository() {
    const logs = new Map<string, number[]>();
    return {
      logs,
      book: async <T>(keys: string[], plan: (logged: number[][]) => { calls: number[][]; result: T }) => {
        const { calls, result } = plan(keys.map((key) => logs.get(key) ?? []));
        keys.forEach((key, index) => logs.set(key, calls[index]));
        return result;
      },
    };
  }
  const credentials = { integrationId: 'int-a-1', providerRestaurantId: 'getir-r-1', settings: {}, secrets: { secretKey: 's' } };
  const fingerprints = { of: () => 'fp' };

  it('books PLATFORM_A\'s active-orders poll in its own scope and the token one while there is room now, and books nothing once there is none', async () => {
    const repository = memoryRepository();
    const budgets = new PlatformCallBudgets(repository as never, adapters, { PLATFORM_CALL_BUDGETS: 'PLATFORM_A:active-orders=2/60000' } as never, fingerprints as never);
    let now = 1_000_000;
    const clock = () => now;
    expect(await budgets.bookNow('PLATFORM_A', credentials, 'poll:active', clock)).toBe(true);
    now += 10;
    expect(await budgets.bookNow('PLATFORM_A', credentials, 'poll:active', clock)).toBe(true);
    now += 10;
    expect(await budgets.bookNow('PLATFORM_A', credentials, 'poll:active', clock)).toBe(false);
    expect(repository.logs.get('PLATFORM_A:active-orders:int-a-1:fp')).toEqual([1_000_000, 1_000_010]);
    expect(repository.logs.get('PLATFORM_A:token:int-a-1:fp')).toEqual([1_000_000, 1_000_010]);
    now += 60_000;
    expect(await budgets.bookNow('PLATFORM_A', credentials, 'poll:active', clock)).toBe(true);
    // A call no scope counts books nothing.
    expect(await budgets.bookNow('PLATFORM_C', { ...credentials, settings: { supplierId: '1', storeId: '2' } }, 'poll:active', clock)).toBeUndefined();
  });
});

describe('PLATFORM_CALL_BUDGETS', () => {
  it('reads limit / window per platform scope', () => {
    expect(parseCallBudgetOverrides(' PLATFORM_A:token=40/1300, PLATFORM_C:manual-shipped=5/1000 ')).toEqual(
      new Map([
        ['PLATFORM_A:token', { limit: 40, windowMs: 1_300 }],
        ['PLATFORM_C:manual-shipped', { limit: 5, windowMs: 1_000 }],
      ]),
    );
    expect(parseCallBudgetOverrides(undefined)).toEqual(new Map());
  });

  it.each(['PLATFORM_A:token=40', 'PLATFORM_A=40/1000', 'PLATFORM_A:token=0/1000', 'PLATFORM_A:token=40/0', 'PLATFORM_A:token=-1/1000'])('refuses %s, naming the variable', (raw) => {
    expect(() => parseCallBudgetOverrides(raw)).toThrow(/PLATFORM_CALL_BUDGETS/);
  });

  it('replaces the numbers of the scopes it names and keeps the others', () => {
    const budget = budgets('PLATFORM_A:token=40/1300').budgetOf('PLATFORM_A')!;
    expect(budget.scopes.map(({ name, limit, windowMs }) => [name, limit, windowMs])).toEqual([
      ['token', 40, 1_300],
      ['cancel-options', 36, 602_000],
      ['active-orders', 18, 62_000],
      ['configuration', 2, 65_000],
    ]);
    expect(budgets().budgetOf('PLATFORM_A')!.scopes[0]).toMatchObject({ name: 'token', limit: 270, windowMs: 62_000 });
  });

  it('stops the start for an unknown scope, or a limit below the requests of one call', () => {
    expect(() => budgets('PLATFORM_A:tokens=40/1300')).toThrow(ConfigurationError);
    expect(() => budgets('PLATFORM_Z:token=40/1300')).toThrow(/no platform has the scope PLATFORM_Z:token/);
    // PLATFORM_A's CANCEL makes two requests in its token scope.
    expect(() => budgets('PLATFORM_A:token=1/1300')).toThrow(/at least 2/);
  });
});
