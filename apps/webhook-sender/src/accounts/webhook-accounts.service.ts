import { Injectable } from '@nestjs/common';
import { AccountSnapshot } from '@courier/contracts';
import { WebhookAccountsRepository } from '../repositories/webhook-accounts.repository';

/** The sender's read model of the accounts: kept from the snapshots, read to send (and, by @courier/http's ApiCredentialsGuard, to authenticate). */
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
}
