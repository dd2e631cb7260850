import { parseOffsetDateTime } from './offset-date-time';

describe('parseOffsetDateTime', () => {
  it('reads date-times with Z or an offset', () => {
    expect(parseOffsetDateTime('2030-01-31T18:30:00+03:00')?.toISOString()).toBe('2030-01-31T15:30:00.000Z');
    expect(parseOffsetDateTime('2030-01-31T18:30:00Z')?.toISOString()).toBe('2030-01-31T18:30:00.000Z');
    expect(parseOffsetDateTime('2030-01-31T18:30Z')?.toISOString()).toBe('2030-01-31T18:30:00.000Z');
    expect(parseOffsetDateTime('2030-01-31T18:30:00.123456-05:30')?.toISOString()).toBe('2030-02-01T00:00:00.123Z');
    expect(parseOffsetDateTime('2028-02-29T00:00:00+0000')?.toISOString()).toBe('2028-02-29T00:00:00.000Z');
  });

  it('refuses missing offsets, other formats and impossible dates', () => {
    for (const text of [
      '2030-01-31T18:30:00',
      '2030-01-31',
      '2030-01-31 18:30:00Z',
      '31/01/2030 18:30',
      '2030-02-30T10:00:00Z',
      '2029-02-29T10:00:00Z',
      '2030-13-01T10:00:00Z',
      '2030-01-31T24:00:00Z',
      '2030-01-31T18:60:00Z',
      '2030-01-31T18:30:00+24:00',
      'tomorrow',
      '',
    ]) {
      expect({ text, parsed: parseOffsetDateTime(text) }).toEqual({ text, parsed: undefined });
    }
  });
});
