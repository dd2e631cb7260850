/**
 * The one rule for the identifiers a client chooses (orderId, providerRestaurantId, a platform's
 * store or supplier id) and for reasons and notes: Unicode NFC, surrounding white space trimmed, and
 * no character that hides or reorders text — C0 and C1 controls, bidirectional embeddings,
 * overrides and isolates, zero-width characters and the byte order mark. Two ids are the same id
 * when their identity keys are equal: compatibility-normalised (NFKC: full-width, ligatures) and
 * lower-cased with Unicode's default, locale-independent mapping (the Turkish dotless ı stays
 * distinct from i; İ lower-cases to i + U+0307, so it is not I).
 */

// eslint-disable-next-line no-control-regex -- the point is to find control and invisible characters
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/;

/** What a refused string is told. */
export const FORBIDDEN_CHARACTERS_MESSAGE = 'must not contain control, bidirectional or zero-width characters';

export type NormalisedText = { ok: true; value: string } | { ok: false; message: string };

/** The first forbidden character of `value` as `U+XXXX`, or undefined when it has none. */
export function forbiddenCharacterIn(value: string): string | undefined {
  const found = FORBIDDEN.exec(value);
  return found ? `U+${found[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` : undefined;
}

/** NFC, trimmed; refused (with the message a 422 lists) when it holds a forbidden character. */
export function normaliseText(value: string): NormalisedText {
  const forbidden = forbiddenCharacterIn(value);
  if (forbidden !== undefined) return { ok: false, message: `${FORBIDDEN_CHARACTERS_MESSAGE} (${forbidden})` };
  return { ok: true, value: value.normalize('NFC').trim() };
}

/** The stored form of an id or a reason: normaliseText's value, or the string unchanged when it is refused (validation reports it). */
export function normalisedOrSame(value: string): string {
  const result = normaliseText(value);
  return result.ok ? result.value : value;
}

/**
 * The key uniqueness is enforced on: ids whose keys are equal are the same id (case, width and
 * surrounding space ignored). Computed from the normalised id; trimmed again, since NFKC can turn a
 * character into a space (an ideographic space into U+0020).
 */
export function identityKey(id: string): string {
  return id.normalize('NFC').trim().normalize('NFKC').trim().toLowerCase();
}
