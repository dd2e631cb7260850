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
  example?: string;
  /** Not required on create (a setting with a default elsewhere); when given, checked like any field. */
  optional?: boolean;
}

/**
 * One delivery platform as the integration API knows it: its neutral code (stored and carried in
 * events), the variable that renames it on the wire, and its credential fields. Every field listed
 * is required on create unless `optional`; fields of other platforms are refused.
 */
export interface PlatformDefinition {
  /** Stable neutral code: PLATFORM_A, ... Stored in databases and carried in events. */
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
