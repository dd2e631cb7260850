import type { StatusPushAction, StatusPushRules } from '@courier/domain';
import type { CallBudget } from './call-budget';

/** A credential or identifier an integration of a platform carries, besides providerRestaurantId and isActive. */
export interface CredentialFieldDefinition {
  /** JSON name in the integration body and record. */
  name: string;
  /** Secret fields are encrypted at rest, masked in responses, never logged. */
  secret: boolean;
  description: string;
  /** Longest accepted value (default 256 for identifiers, 1024 for secrets). */
  maxLength?: number;
  /** A rule the value must match (e.g. a value sent in an HTTP header), with the error it gives. */
  pattern?: { regex: RegExp; message: string };
  /**
   * The HTTP header the adapter puts the value into as it is (not encoded): the value must then be
   * one a header field can carry (isHeaderSafe), refused at create and update otherwise. A value
   * the adapter encodes first (base64 in Basic, form or JSON bodies) is not header-bound.
   */
  sentInHeader?: string;
  example?: string;
  /** Not required on create (a setting with a default elsewhere); when given, checked like any field. */
  optional?: boolean;
}

/**
 * What an HTTP header field value carries without loss (RFC 9110 section 5.5, field-value):
 * visible ASCII (0x21-0x7E), with spaces only inside. Tabs and other control characters are
 * refused (CR/LF would split the header); leading or trailing spaces would be trimmed by the
 * receiver; bytes above 0x7E are obs-text, which Node sends as Latin-1 (a different secret from the
 * UTF-8 one typed) or refuses outright (ERR_INVALID_CHAR above U+00FF, e.g. `ş`, `ğ`).
 */
export const HEADER_SAFE_VALUE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

export function isHeaderSafe(value: string): boolean {
  return HEADER_SAFE_VALUE.test(value);
}

/** The error of a header-bound value that a header cannot carry. */
export function headerUnsafeMessage(header: string): string {
  return `must be visible ASCII characters (letters, digits, punctuation; spaces only inside): it is sent in the ${header} HTTP header, which cannot carry other characters`;
}

/**
 * The header-bound fields of a platform whose stored value a header cannot carry (names only,
 * never values): such a value cannot be sent, and each call with it is a final failure. For values
 * stored before the rule, or written around the API.
 */
export function headerUnsafeFields(platform: Pick<PlatformDefinition, 'fields'>, values: Record<string, string | undefined>): CredentialFieldDefinition[] {
  return platform.fields.filter((field) => field.sentInHeader !== undefined && values[field.name] !== undefined && !isHeaderSafe(values[field.name]!));
}

/**
 * One delivery platform as the integration API knows it: its neutral code (stored and carried in
 * events), the variable that renames it on the wire, and its credential fields. Every field listed
 * is required on create unless `optional`; fields of other platforms are refused.
 */
export interface PlatformDefinition {
  /** Stable neutral code, stored in databases and carried in events. */
  code: string;
  title: string;
  /** Environment variable holding the platform's code on the wire (default: the neutral code). */
  wireCodeVariable?: string;
  fields: CredentialFieldDefinition[];
  /** At most one integration of this platform per account (THIRD_PARTY). */
  singlePerAccount?: boolean;
  /**
   * Whose identifier providerRestaurantId is. 'platform' (the default: every delivery platform,
   * any added later included): the platform's restaurant, which incoming orders are routed by, so
   * one integration across all accounts holds it. 'account': the customer's own label (THIRD_PARTY),
   * unique per account only.
   */
  restaurantIdScope?: 'platform' | 'account';
  /** The platform's rules the status-push guards apply (libs/domain reads them from here, e.g. the PREPARE hold). */
  statusRules?: StatusPushRules;
  /** Steps of one order the platform wants at least a minimum interval apart (the hold's length, configured). */
  spacedSteps?: readonly StatusPushAction[];
  /** The platform's call budget per set of credentials: the dispatcher books room in it before each call. */
  callBudget?: CallBudget;
}

/** Whether an integration of this platform holds a platform restaurant that no other account's integration may hold. */
export function holdsPlatformRestaurant(platform: Pick<PlatformDefinition, 'restaurantIdScope'>): boolean {
  return (platform.restaurantIdScope ?? 'platform') === 'platform';
}

/** Fields every platform has. */
export const COMMON_INTEGRATION_FIELDS = {
  providerRestaurantId: { maxLength: 128, description: 'Restaurant identifier on the platform.' },
  isActive: { description: 'Whether order intake from this integration is on (default true).' },
} as const;

export const DEFAULT_IDENTIFIER_MAX_LENGTH = 256;
export const DEFAULT_SECRET_MAX_LENGTH = 1024;

export function maxLengthOf(field: CredentialFieldDefinition): number {
  return field.maxLength ?? (field.secret ? DEFAULT_SECRET_MAX_LENGTH : DEFAULT_IDENTIFIER_MAX_LENGTH);
}
