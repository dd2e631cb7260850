import { isDateTime } from './date-time.decorator';

describe('isDateTime', () => {
  it.each(['2026-11-26T12:00:00Z', '2026-11-26T12:00:00.123+03:00', '2026-11-26T12:00Z', '2026-11-26', '9999-12-31T23:59:59-14:00'])('takes %s', (value) => {
    expect(isDateTime(value)).toBe(true);
  });

  // ISO 8601 all, but no JavaScript Date: week and ordinal dates, the basic format, an hour alone.
  it.each(['2026-W48', '2026-W48-7T10:00Z', '2026-330', '20261126T120000Z', '2026-11-26T12Z', '2026-02-30', 'yesterday', '', 20261126])('refuses %s', (value) => {
    expect(isDateTime(value)).toBe(false);
  });
});
