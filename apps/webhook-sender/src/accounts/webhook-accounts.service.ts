import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AccountSnapshot } from '@courier/contracts';
import { constantTimeEqual, hashCredential } from '@courier/crypto';
import { WebhookAccountEntity } from './webhook-account.entity';

// Compared against when no account has the presented key, so both paths do the same work.
const ABSENT_SECRET_HASH = hashCredential('no account has this key');

/** The sender's read model of the accounts: kept from the snapshots, read to send and to authenticate. */
@Injectable()
export class WebhookAccountsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Upserts the account when the snapshot is newer than the copy held (events may come twice or out
   * of order; each carries the whole account). Returns whether it was applied.
   */
  async applySnapshot(snapshot: AccountSnapshot): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO webhook_accounts (restaurant_id, name, status, api_key_hash, api_secret_hash, status_url, cancel_url, signing_secret_ciphertext, version, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (restaurant_id) DO UPDATE SET
         name = EXCLUDED.name, status = EXCLUDED.status, api_key_hash = EXCLUDED.api_key_hash, api_secret_hash = EXCLUDED.api_secret_hash,
         status_url = EXCLUDED.status_url, cancel_url = EXCLUDED.cancel_url, signing_secret_ciphertext = EXCLUDED.signing_secret_ciphertext,
         version = EXCLUDED.version, updated_at = EXCLUDED.updated_at
       WHERE webhook_accounts.version < EXCLUDED.version
       RETURNING restaurant_id`,
      [
        snapshot.restaurantId,
        snapshot.name,
        snapshot.status,
        snapshot.apiKeyHash,
        snapshot.apiSecretHash,
        snapshot.webhooks.statusUrl,
        snapshot.webhooks.cancelUrl,
        snapshot.webhooks.signingSecretCiphertext,
        snapshot.version,
        new Date(snapshot.occurredAt),
      ],
    );
    return rows.length > 0;
  }

  /** The active account whose key pair this is, or undefined; the secret is compared in constant time. */
  async authenticate(apiKey: string, apiSecret: string): Promise<WebhookAccountEntity | undefined> {
    const candidates = await this.dataSource.getRepository(WebhookAccountEntity).find({ where: { apiKeyHash: hashCredential(apiKey) } });
    const presented = hashCredential(apiSecret);
    let match: WebhookAccountEntity | undefined;
    for (const account of candidates) {
      if (constantTimeEqual(account.apiSecretHash, presented) && account.status === 'active') match = account;
    }
    if (candidates.length === 0) constantTimeEqual(ABSENT_SECRET_HASH, presented);
    return match;
  }
}
