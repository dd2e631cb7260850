import { DEFAULT_CURRENCY, ISO_4217_CURRENCY_CODES, isIsoCurrencyCode } from './iso-4217-currencies';

describe('ISO 4217 currencies', () => {
  it.each(['TRY', 'EUR', 'USD', 'GBP', 'JPY', 'KWD', 'XOF', 'CHF', 'SLE', 'VED', 'ZWG', 'XCG'])('knows %s', (code) => {
    expect(isIsoCurrencyCode(code)).toBe(true);
  });

  it.each(['try', 'Eur', 'TL', 'EURO', 'XYZ', 'HRK', 'DEM', 'TRL', ' TRY', 'TRY ', '', 'BTC'])('refuses %p', (code) => {
    expect(isIsoCurrencyCode(code)).toBe(false);
  });

  it('refuses values that are not strings', () => {
    expect(isIsoCurrencyCode(949)).toBe(false);
    expect(isIsoCurrencyCode(undefined)).toBe(false);
  });

  it('holds only three upper-case letters per code, with TRY as default', () => {
    for (const code of ISO_4217_CURRENCY_CODES) expect(code).toMatch(/^[A-Z]{3}$/);
    expect(ISO_4217_CURRENCY_CODES.size).toBeGreaterThan(170);
    expect(DEFAULT_CURRENCY).toBe('TRY');
    expect(isIsoCurrencyCode(DEFAULT_CURRENCY)).toBe(true);
  });
});
