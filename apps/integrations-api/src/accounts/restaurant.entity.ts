import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { AccountStatus } from '@courier/contracts';

/** A restaurant account: the customer of the integration API. Credentials are stored only as hashes. */
@Entity({ name: 'restaurants' })
export class RestaurantEntity {
  /** `rest_` + 24 url-safe characters. */
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text' })
  status: AccountStatus;

  /** SHA-256 hex of the API key; unique, so a presented key is found by index. */
  @Column({ name: 'api_key_hash', type: 'text' })
  apiKeyHash: string;

  @Column({ name: 'api_secret_hash', type: 'text' })
  apiSecretHash: string;

  @Column({ name: 'webhook_status_url', type: 'text', nullable: true })
  webhookStatusUrl: string | null;

  @Column({ name: 'webhook_cancel_url', type: 'text', nullable: true })
  webhookCancelUrl: string | null;

  /** SecretBox ciphertext of the signing secret; null when signing is off. */
  @Column({ name: 'webhook_signing_secret', type: 'text', nullable: true })
  webhookSigningSecret: string | null;

  /** SecretBox ciphertext of the secret the last rotation replaced; signs beside the current one until the time below. */
  @Column({ name: 'webhook_previous_signing_secret', type: 'text', nullable: true })
  webhookPreviousSigningSecret: string | null;

  /** When the previous secret stops signing; null when there is none. */
  @Column({ name: 'webhook_previous_signing_secret_valid_until', type: 'timestamptz', precision: 3, nullable: true })
  webhookPreviousSigningSecretValidUntil: Date | null;

  /** Grows by one with each change; carried by account events so consumers drop stale ones. */
  @Column({ type: 'int' })
  version: number;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}
