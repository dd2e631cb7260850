import { Injectable } from '@nestjs/common';
import { AccountSnapshot } from '@courier/contracts';
import { constantTimeEqual, hashCredential } from '@courier/crypto';
import { WebhookAccount, WebhookAccountsRepository } from '../repositories/webhook-accounts.repository';

// Compared against when no account has the presented key, so both paths do the same work.
const ABSENT_SECRET_HASH = hashCredential('no account has this key');

/** The sender's read model of the accounts: kept from the snapshots, read to send and to authenticate. */
@Injectable()
export class WebhookAccountsService {
  constructor(private readonly accounts: WebhookAccountsRepository) {}

  /**
   * Keeps the account when the snapshot is newer than the copy held (events may come twice or out
   * of order; each carries the whole account). Returns whether it was applied.
   */
  applySnapshot(snapshot: AccountSnapshot): Promise<boolean> {
    return this.accounts.applySnapshot(snapshot);
  }

  /** The active account whose key pair this is, or undefined; the secret is compared in constant time. */
  async authenticate(apiKey: string, apiSecret: string): Promise<WebhookAccount | undefined> {
    const candidates = await this.accounts.findByApiKeyHash(hashCredential(apiKey));
    const presented = hashCredential(apiSecret);
    let match: WebhookAccount | undefined;
    for (const account of candidates) {
      if (constantTimeEqual(account.apiSecretHash, presented) && account.status === 'active') match = account;
    }
    if (candidates.length === 0) constantTimeEqual(ABSENT_SECRET_HASH, presented);
    return match;
  }
}
