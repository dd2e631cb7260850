export const SECRET_MASK = '****';

/** Secrets shorter than this show no characters at all: four of five would give most of it away. */
const MIN_LENGTH_TO_HINT = 8;

/** `****` + the last 4 characters: enough to recognise a secret, not to use it. */
export function maskSecret(value: string | null | undefined): string {
  if (!value) return SECRET_MASK;
  const characters = Array.from(value);
  return characters.length < MIN_LENGTH_TO_HINT ? SECRET_MASK : SECRET_MASK + characters.slice(-4).join('');
}

/** True for a value that is (or starts like) a mask: a client sending back what it was shown. */
export function isMaskedSecret(value: unknown): boolean {
  return typeof value === 'string' && value.startsWith(SECRET_MASK);
}
