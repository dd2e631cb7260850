import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The sender's copy of a restaurant account, upserted from the account.* snapshots (the highest
 * `version` wins): the receiver URLs and signing-secret ciphertext used at send time, and the
 * credential hashes that authenticate the delivery log API.
 */
@Entity({ name: 'webhook_accounts' })
export class WebhookAccountEntity {
  @PrimaryColumn({ name: 'restaurant_id', type: 'text' })
  restaurantId: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text' })
  status: string;

  @Column({ name: 'api_key_hash', type: 'text' })
  apiKeyHash: string;

  @Column({ name: 'api_secret_hash', type: 'text' })
  apiSecretHash: string;

  @Column({ name: 'status_url', type: 'text', nullable: true })
  statusUrl: string | null;

  @Column({ name: 'cancel_url', type: 'text', nullable: true })
  cancelUrl: string | null;

  /** SecretBox ciphertext (SECRETS_ENCRYPTION_KEYS); opened only to sign, never stored or logged in clear. */
  @Column({ name: 'signing_secret_ciphertext', type: 'text', nullable: true })
  signingSecretCiphertext: string | null;

  /** The secret a rotation replaced (same encryption): it signs beside the current one until `previousSigningSecretValidUntil`. */
  @Column({ name: 'previous_signing_secret_ciphertext', type: 'text', nullable: true })
  previousSigningSecretCiphertext: string | null;

  @Column({ name: 'previous_signing_secret_valid_until', type: 'timestamptz', nullable: true })
  previousSigningSecretValidUntil: Date | null;

  @Column({ type: 'int' })
  version: number;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
