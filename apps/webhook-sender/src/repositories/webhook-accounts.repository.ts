import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AccountSnapshot } from '@courier/contracts';
import { WebhookAccountEntity } from '../accounts/webhook-account.entity';
import type { WebhookAccount } from './webhook-accounts.model';

/** webhook_accounts: the accounts read model, kept from the account.* snapshots. */
@Injectable()
export class WebhookAccountsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Upserts the account when the snapshot's version is newer than the copy held; returns whether it was applied. */
  async applySnapshot(snapshot: AccountSnapshot): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO webhook_accounts (restaurant_id, name, status, api_key_hash, api_secret_hash, status_url, cancel_url, signing_secret_ciphertext,
                                     previous_signing_secret_ciphertext, previous_signing_secret_valid_until, version, updated_at)
       SELECT restaurant_id, name, status, api_key_hash, api_secret_hash, status_url, cancel_url, signing_secret_ciphertext,
              previous_signing_secret_ciphertext, previous_signing_secret_valid_until, version, updated_at
         FROM jsonb_populate_record(NULL::webhook_accounts, $1::jsonb)
       ON CONFLICT (restaurant_id) DO UPDATE SET
         name = EXCLUDED.name, status = EXCLUDED.status, api_key_hash = EXCLUDED.api_key_hash, api_secret_hash = EXCLUDED.api_secret_hash,
         status_url = EXCLUDED.status_url, cancel_url = EXCLUDED.cancel_url, signing_secret_ciphertext = EXCLUDED.signing_secret_ciphertext,
         previous_signing_secret_ciphertext = EXCLUDED.previous_signing_secret_ciphertext, previous_signing_secret_valid_until = EXCLUDED.previous_signing_secret_valid_until,
         version = EXCLUDED.version, updated_at = EXCLUDED.updated_at
       WHERE webhook_accounts.version < EXCLUDED.version
       RETURNING restaurant_id`,
      [
        JSON.stringify({
          restaurant_id: snapshot.restaurantId,
          name: snapshot.name,
          status: snapshot.status,
          api_key_hash: snapshot.apiKeyHash,
          api_secret_hash: snapshot.apiSecretHash,
          status_url: snapshot.webhooks.statusUrl,
          cancel_url: snapshot.webhooks.cancelUrl,
          signing_secret_ciphertext: snapshot.webhooks.signingSecretCiphertext,
          // Snapshots from a producer without rotation grace have neither field: no previous secret.
          previous_signing_secret_ciphertext: snapshot.webhooks.previousSigningSecretCiphertext ?? null,
          previous_signing_secret_valid_until: snapshot.webhooks.previousSigningSecretValidUntil ? new Date(snapshot.webhooks.previousSigningSecretValidUntil) : null,
          version: snapshot.version,
          updated_at: new Date(snapshot.occurredAt),
        }),
      ],
    );
    return rows.length > 0;
  }

  /** The accounts whose API key has this hash (one, unless keys collide). */
  findByApiKeyHash(apiKeyHash: string): Promise<WebhookAccount[]> {
    return this.dataSource.getRepository(WebhookAccountEntity).find({ where: { apiKeyHash } });
  }
}
