const OFFSET_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?([Zz]|[+-](\d{2}):?(\d{2}))$/;

/**
 * Parses an ISO 8601 date-time that names its offset (`Z` or `±hh:mm`), checking every part's
 * range (Date.parse would roll 31 February over into March). Undefined when it is not one.
 */
export function parseOffsetDateTime(text: string): Date | undefined {
  const match = OFFSET_DATE_TIME.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute] = match.slice(1, 6).map(Number);
  const second = match[6] === undefined ? 0 : Number(match[6]);
  const offsetHours = match[9] === undefined ? 0 : Number(match[9]);
  const offsetMinutes = match[10] === undefined ? 0 : Number(match[10]);
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth) return undefined;
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return undefined;
  const milliseconds = match[7] === undefined ? 0 : Number(match[7].slice(0, 3).padEnd(3, '0'));
  const sign = match[8].startsWith('-') ? -1 : 1;
  const local = Date.UTC(year, month - 1, day, hour, minute, second, milliseconds);
  // Date.UTC maps years 0..99 onto 1900..1999; the regex allows them, so set the year exactly.
  const utc = new Date(local);
  utc.setUTCFullYear(year);
  return new Date(utc.getTime() - sign * (offsetHours * 60 + offsetMinutes) * 60_000);
}
