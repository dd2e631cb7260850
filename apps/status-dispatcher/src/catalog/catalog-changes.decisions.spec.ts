import { changeTargets, MAX_PRICE, priceProblem, productCodeProblem } from './catalog-changes.decisions';

describe('changeTargets', () => {
  const integration = (integrationId: string, facts: { isActive?: boolean; verified?: boolean } = {}) => ({ integrationId, platform: `P_${integrationId}`, isActive: facts.isActive ?? true, verified: facts.verified ?? true });

  it('sends to each active, verified integration with a linked product, and answers the unlinked one not_linked', () => {
    const targets = changeTargets([integration('a'), integration('b')], [{ integrationId: 'a', platformProductId: 'pa' }]);
    expect(targets).toEqual([
      { kind: 'send', integration: integration('a'), platformProductId: 'pa' },
      { kind: 'answer', integration: integration('b'), platformProductId: null, state: 'not_linked', code: 'PRODUCT_NOT_LINKED', message: expect.any(String) },
    ]);
  });

  it('refuses a linked integration not verified yet (nothing may be sent with its credentials)', () => {
    const [target] = changeTargets([integration('a', { verified: false })], [{ integrationId: 'a', platformProductId: 'pa' }]);
    expect(target).toMatchObject({ kind: 'answer', state: 'refused', code: 'INTEGRATION_NOT_VERIFIED', platformProductId: 'pa' });
  });

  it('leaves inactive integrations out, linked or not', () => {
    const targets = changeTargets([integration('a', { isActive: false }), integration('b', { isActive: false, verified: false })], [{ integrationId: 'a', platformProductId: 'pa' }]);
    expect(targets).toEqual([]);
  });

  it('keeps the integrations\' order and ignores links of integrations not listed', () => {
    const targets = changeTargets([integration('b'), integration('a')], [{ integrationId: 'a', platformProductId: 'pa' }, { integrationId: 'gone', platformProductId: 'px' }]);
    expect(targets.map((target) => [target.integration.integrationId, target.kind])).toEqual([['b', 'answer'], ['a', 'send']]);
  });
});

describe('priceProblem', () => {
  it.each([1, 0.01, 0.29, 12.5, 64.9, 99.99, 1234.56, MAX_PRICE, 999_999.99])('accepts %p', (price) => {
    expect(priceProblem(price)).toBeUndefined();
  });

  it.each([
    [0, 'greater than 0'],
    [-5, 'greater than 0'],
    [Number.NaN, 'greater than 0'],
    [Number.POSITIVE_INFINITY, 'greater than 0'],
    [MAX_PRICE + 0.01, `at most ${MAX_PRICE}`],
    [12.345, 'at most 2 decimals'],
    [0.001, 'at most 2 decimals'],
    [1e-7, 'at most 2 decimals'],
    [1e-9, 'at most 2 decimals'],
    [Number.MIN_VALUE, 'at most 2 decimals'],
    [999_999.999, 'at most 2 decimals'],
  ])('refuses %p (%s)', (price, message) => {
    expect(priceProblem(price)).toEqual({ code: 'VALIDATION_ERROR', field: 'price', message: expect.stringContaining(message) });
  });
});

describe('productCodeProblem', () => {
  it.each(['LAHMACUN', 'P-1', 'x'.repeat(128), 'Çiğ köfte dürüm'])('accepts %p', (code) => {
    expect(productCodeProblem(code)).toBeUndefined();
  });

  it.each(['', '   ', 'x'.repeat(129), 'a\u0000b', 'line\nbreak'])('refuses %p', (code) => {
    expect(productCodeProblem(code)).toMatchObject({ code: 'VALIDATION_ERROR', field: 'productCode' });
  });
});
