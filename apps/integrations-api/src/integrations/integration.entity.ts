import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { IntegrationVerificationState } from '@courier/contracts';

/**
 * A restaurant's credentials on one platform. Clear fields in `settings`; secret fields in
 * `secrets` as SecretBox ciphertexts (`v1:<keyId>:...`), keyed by field name.
 */
@Entity({ name: 'integrations' })
export class IntegrationEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'restaurant_id', type: 'text' })
  restaurantId: string;

  /** Neutral platform code (PLATFORM_A ...), not the wire code. */
  @Column({ type: 'text' })
  platform: string;

  @Column({ name: 'provider_restaurant_id', type: 'text' })
  providerRestaurantId: string;

  /**
   * identityKey(providerRestaurantId): what the unique indexes compare, so that ids differing only
   * by case, width or surrounding space are one platform restaurant. Null only on rows that already
   * collided when the key was introduced (kept apart under their exact ids); set again when such a
   * row is given another providerRestaurantId.
   */
  @Column({ name: 'provider_restaurant_key', type: 'text', nullable: true })
  providerRestaurantKey: string | null;

  @Column({ name: 'is_active', type: 'boolean' })
  isActive: boolean;

  @Column({ type: 'jsonb' })
  settings: Record<string, string>;

  @Column({ type: 'jsonb' })
  secrets: Record<string, string>;

  @Column({ type: 'int' })
  version: number;

  /**
   * Set when another integration took its providerRestaurantId (operator transfer, clean-up of
   * duplicates): it is inactive and holds no platform restaurant until it claims one again
   * (activated, or given a new providerRestaurantId).
   */
  @Column({ name: 'displaced_at', type: 'timestamptz', precision: 3, nullable: true })
  displacedAt: Date | null;

  /** When and by whom an operator confirmed that this integration's account owns its platform restaurant. */
  @Column({ name: 'verified_at', type: 'timestamptz', precision: 3, nullable: true })
  verifiedAt: Date | null;

  @Column({ name: 'verified_by', type: 'text', nullable: true })
  verifiedBy: string | null;

  /** The platform's verdict on the credentials for providerRestaurantId: only a verified integration receives its orders. */
  @Column({ name: 'verification_state', type: 'text', default: 'unverified' })
  verificationState: IntegrationVerificationState;

  @Column({ name: 'verification_verified_at', type: 'timestamptz', precision: 3, nullable: true })
  verificationVerifiedAt: Date | null;

  /** The last verdict's explanation (never a secret). */
  @Column({ name: 'verification_detail', type: 'text', nullable: true })
  verificationDetail: string | null;

  /** Keyed fingerprint of the credentials the last verdict was about (IntegrationFingerprints). */
  @Column({ name: 'verification_fingerprint', type: 'text', nullable: true })
  verificationFingerprint: string | null;

  @Column({ name: 'verification_attempted_at', type: 'timestamptz', precision: 3, nullable: true })
  verificationAttemptedAt: Date | null;

  /** The fingerprint of the credentials the platform was told are ready (the adapter's announcePosReady); null: not told since the last change or deactivation. */
  @Column({ name: 'pos_ready_fingerprint', type: 'text', nullable: true })
  posReadyFingerprint: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}
