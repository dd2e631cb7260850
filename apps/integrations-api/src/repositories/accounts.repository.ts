import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AccountSnapshotKey, AccountStatus } from '@courier/contracts';
import type { ListPosition } from '@courier/http';
import { TransactionContext } from '@courier/messaging';
import { accountSnapshot } from '../accounts/account-snapshot';
import { RestaurantEntity } from '../accounts/restaurant.entity';
import { IntegrationsRepository } from './integrations.repository';

export interface AccountFilter {
  /** Rows to read (a page and one more, to know whether there is a next one). */
  take: number;
  status?: AccountStatus;
  after?: ListPosition;
}

/** The restaurants table (accounts): every read and write of accounts, as RestaurantEntity (camelCase). */
@Injectable()
export class AccountsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly integrations: IntegrationsRepository,
  ) {}

  async insert(tx: TransactionContext, restaurant: RestaurantEntity): Promise<void> {
    await tx.manager.insert(RestaurantEntity, restaurant);
  }

  /** Accounts in creation order, from `after`. */
  page(filter: AccountFilter): Promise<RestaurantEntity[]> {
    const query = this.dataSource.getRepository(RestaurantEntity).createQueryBuilder('r').orderBy('r.createdAt', 'ASC').addOrderBy('r.id', 'ASC').limit(filter.take);
    if (filter.status) query.andWhere('r.status = :status', { status: filter.status });
    if (filter.after) query.andWhere('(r.created_at, r.id) > (:createdAt, :id)', { createdAt: filter.after.createdAt, id: filter.after.id });
    return query.getMany();
  }

  findById(id: string): Promise<RestaurantEntity | null> {
    return this.dataSource.getRepository(RestaurantEntity).findOne({ where: { id } });
  }

  /** The account of a presented key, by its hash (a unique index). */
  findByApiKeyHash(apiKeyHash: string): Promise<RestaurantEntity | null> {
    return this.dataSource.getRepository(RestaurantEntity).findOne({ where: { apiKeyHash } });
  }

  /** Ids (after `after`, in order) of accounts whose signing secret's (or previous secret's) ciphertext does not start as `currentPrefix` (a LIKE pattern). */
  async idsWithStaleSigningSecret(after: string, currentPrefix: string, limit: number): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `SELECT id FROM restaurants WHERE id > $1 AND (webhook_signing_secret NOT LIKE $2 OR webhook_previous_signing_secret NOT LIKE $2) ORDER BY id LIMIT $3`,
      [
        after,
        currentPrefix,
        limit,
      ],
    );
    return rows.map((row) => row.id);
  }

  /** Writes the account's current snapshot to the outbox of `tx` under `routingKey`. */
  async publishSnapshot(tx: TransactionContext, routingKey: AccountSnapshotKey, restaurant: RestaurantEntity, occurredAt = new Date()): Promise<void> {
    const thirdParty = await this.integrations.thirdPartyOf(tx, restaurant.id);
    await tx.publish(routingKey, accountSnapshot(restaurant, thirdParty, occurredAt));
  }

  /**
   * One change of an account, inside `tx`: locks the row, applies `change` (which may say there is
   * nothing to do by returning false), bumps the version and publishes the snapshot. Returns the
   * account after the change, or undefined when there is no such account.
   *
   * Lock order: a transaction that also changes an integration locks the integration first.
   */
  async change(
    tx: TransactionContext,
    routingKey: AccountSnapshotKey,
    restaurantId: string,
    change: (restaurant: RestaurantEntity, now: Date) => boolean | void = () => true,
  ): Promise<RestaurantEntity | undefined> {
    const restaurant = await tx.manager.findOne(RestaurantEntity, { where: { id: restaurantId }, lock: { mode: 'pessimistic_write' } });
    if (!restaurant) return undefined;
    const now = new Date();
    if (change(restaurant, now) === false) return restaurant;
    // A previous signing secret whose grace period is over is of no use to anyone: it leaves with the next change.
    if (restaurant.webhookPreviousSigningSecretValidUntil !== null && restaurant.webhookPreviousSigningSecretValidUntil <= now) {
      restaurant.webhookPreviousSigningSecret = null;
      restaurant.webhookPreviousSigningSecretValidUntil = null;
    }
    restaurant.version += 1;
    restaurant.updatedAt = now;
    await tx.manager.update(
      RestaurantEntity,
      { id: restaurant.id },
      {
        name: restaurant.name,
        status: restaurant.status,
        apiKeyHash: restaurant.apiKeyHash,
        apiSecretHash: restaurant.apiSecretHash,
        webhookStatusUrl: restaurant.webhookStatusUrl,
        webhookCancelUrl: restaurant.webhookCancelUrl,
        webhookSigningSecret: restaurant.webhookSigningSecret,
        webhookPreviousSigningSecret: restaurant.webhookPreviousSigningSecret,
        webhookPreviousSigningSecretValidUntil: restaurant.webhookPreviousSigningSecretValidUntil,
        version: restaurant.version,
        updatedAt: now,
      },
    );
    await this.publishSnapshot(tx, routingKey, restaurant, now);
    return restaurant;
  }
}
