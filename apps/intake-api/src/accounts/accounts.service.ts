import { Injectable } from '@nestjs/common';
import { AccountSnapshot } from '@courier/contracts';
import { AccountsRepository } from './accounts.repository';
import { IntakeAccount } from './intake-account';

/**
 * How long a key lookup is reused. Deactivations must bite within one second on every replica
 * (only the replica that consumes an event can drop its cache entry at once), so the event's
 * delivery time plus this must stay well under a second.
 */
export const ACCOUNT_CACHE_TTL_MS = 250;
/** Bound on cached keys (random keys of failed attempts must not grow memory without end). */
const ACCOUNT_CACHE_MAX_ENTRIES = 10_000;

interface CacheEntry {
  expiresAt: number;
  account: Promise<IntakeAccount | null>;
}

/**
 * intake's read model of the restaurant accounts: upserted from account.* snapshots (newest
 * version wins), looked up by API-key hash on every request with a short cache that also
 * collapses concurrent lookups of one key into one query.
 */
@Injectable()
export class AccountsService {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(private readonly accounts: AccountsRepository) {}

  findByKeyHash(apiKeyHash: string): Promise<IntakeAccount | null> {
    const now = Date.now();
    const cached = this.cache.get(apiKeyHash);
    if (cached && cached.expiresAt > now) return cached.account;
    if (this.cache.size >= ACCOUNT_CACHE_MAX_ENTRIES) this.cache.clear();
    const account = this.accounts.findByKeyHash(apiKeyHash);
    const entry = { expiresAt: now + ACCOUNT_CACHE_TTL_MS, account };
    this.cache.set(apiKeyHash, entry);
    account.catch(() => {
      if (this.cache.get(apiKeyHash) === entry) this.cache.delete(apiKeyHash);
    });
    return account;
  }

  /** Keeps the snapshot when it is newer than the stored one; returns whether it was applied. */
  async applySnapshot(snapshot: AccountSnapshot): Promise<boolean> {
    const applied = await this.accounts.applySnapshot(snapshot);
    // A rotated key's old hash is cached under its own entry: drop everything on this replica.
    if (applied) this.cache.clear();
    return applied;
  }
}
