import { Transform } from 'class-transformer';

/** "true"/"1"/"yes" -> true, "false"/"0"/"no"/"" -> false; anything else stays as given (and fails @IsBoolean). */
export const ToBoolean = () =>
  Transform(({ value }) => {
    if (typeof value === 'boolean' || value === undefined) return value;
    const normalised = String(value).trim().toLowerCase();
    if (['true', '1', 'yes'].includes(normalised)) return true;
    if (['false', '0', 'no', ''].includes(normalised)) return false;
    return value;
  });

/** Numeric env var -> number; a non-numeric string becomes NaN so that @IsInt names it. */
export const ToNumber = () =>
  Transform(({ value }) => (value === undefined || value === '' ? undefined : Number(value)));

/** Comma-separated list -> trimmed, non-empty entries. */
export const ToList = () =>
  Transform(({ value }) =>
    value === undefined
      ? undefined
      : String(value)
          .split(',')
          .map((entry) => entry.trim())
          .filter((entry) => entry.length > 0),
  );

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses "1m", "250ms", "4h", "3d" (or a bare number of milliseconds). Returns NaN when malformed. */
export function parseDuration(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(text);
  if (!match) return Number.NaN;
  return Math.round(Number(match[1]) * UNIT_MS[match[2] ?? 'ms']);
}

/** An empty variable counts as unset (`REDIS_URL=` in a .env file). */
export const EmptyIsUnset = () => Transform(({ value }) => (value === '' ? undefined : value));
