import { isMaskedSecret, maskSecret } from './mask';

describe('maskSecret', () => {
  it('shows **** and the last four characters', () => {
    expect(maskSecret('supersecret-1234')).toBe('****1234');
    expect(maskSecret('12345678')).toBe('****5678');
  });

  it('shows nothing of short or empty secrets', () => {
    expect(maskSecret('1234567')).toBe('****');
    expect(maskSecret('')).toBe('****');
    expect(maskSecret(null)).toBe('****');
    expect(maskSecret(undefined)).toBe('****');
  });

  it('counts characters, not UTF-16 units', () => {
    expect(maskSecret('password-😀😀😀😀')).toBe('****😀😀😀😀');
  });
});

describe('isMaskedSecret', () => {
  it('recognises masks sent back', () => {
    expect(isMaskedSecret('****1234')).toBe(true);
    expect(isMaskedSecret('****')).toBe(true);
    expect(isMaskedSecret(maskSecret('a-real-secret'))).toBe(true);
    expect(isMaskedSecret('***1234')).toBe(false);
    expect(isMaskedSecret('real-secret')).toBe(false);
    expect(isMaskedSecret(undefined)).toBe(false);
  });
});
