import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, IsNull } from 'typeorm';
import { RoutingKey } from '@courier/contracts';
import { identityKey } from '@courier/domain';
import type { ListPosition } from '@courier/http';
import { TransactionContext } from '@courier/messaging';
import { THIRD_PARTY_CODE } from '@courier/platforms';
import { IntegrationEntity } from '../integrations/integration.entity';
import { integrationUpsertedEvent } from '../integrations/integration-events';

export interface IntegrationFilter {
  /** Rows to read (a page and one more, to know whether there is a next one). */
  take: number;
  platform?: string;
  isActive?: boolean;
  after?: ListPosition;
}

/** The integrations table: every read and write of integrations, as IntegrationEntity (camelCase). */
@Injectable()
export class IntegrationsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(tx: TransactionContext, integration: IntegrationEntity): Promise<void> {
    await tx.manager.insert(IntegrationEntity, integration);
  }

  /**
   * Inserts unless a unique index already holds one like it (the platform restaurant's across
   * accounts included); false then. ON CONFLICT DO NOTHING: a duplicate is an expected answer (409),
   * not a failed query to log.
   */
  async insertIfFree(tx: TransactionContext, integration: IntegrationEntity): Promise<boolean> {
    const inserted = await tx.manager.createQueryBuilder().insert().into(IntegrationEntity).values(integration).orIgnore().returning('id').execute();
    return (inserted.raw as unknown[]).length > 0;
  }

  findOwn(restaurantId: string, id: string): Promise<IntegrationEntity | null> {
    return this.dataSource.getRepository(IntegrationEntity).findOne({ where: { id: id.toLowerCase(), restaurantId } });
  }

  lockOwn(tx: TransactionContext, restaurantId: string, id: string): Promise<IntegrationEntity | null> {
    return tx.manager.findOne(IntegrationEntity, { where: { id: id.toLowerCase(), restaurantId }, lock: { mode: 'pessimistic_write' } });
  }

  /** An account's integrations in creation order, from `after`. */
  page(restaurantId: string, filter: IntegrationFilter): Promise<IntegrationEntity[]> {
    const builder = this.dataSource
      .getRepository(IntegrationEntity)
      .createQueryBuilder('i')
      .where('i.restaurant_id = :restaurantId', { restaurantId })
      .orderBy('i.createdAt', 'ASC')
      .addOrderBy('i.id', 'ASC')
      .limit(filter.take);
    if (filter.platform !== undefined) builder.andWhere('i.platform = :platform', { platform: filter.platform });
    if (filter.isActive !== undefined) builder.andWhere('i.is_active = :isActive', { isActive: filter.isActive });
    if (filter.after) builder.andWhere('(i.created_at, i.id) > (:createdAt, :id)', { createdAt: filter.after.createdAt, id: filter.after.id });
    return builder.getMany();
  }

  /** The THIRD_PARTY integrations of these accounts (at most one each). */
  thirdParties(restaurantIds: string[]): Promise<IntegrationEntity[]> {
    return this.dataSource.getRepository(IntegrationEntity).find({ where: { restaurantId: In(restaurantIds), platform: THIRD_PARTY_CODE } });
  }

  thirdPartyOf(tx: TransactionContext, restaurantId: string): Promise<IntegrationEntity | null> {
    return tx.manager.findOne(IntegrationEntity, { where: { restaurantId, platform: THIRD_PARTY_CODE } });
  }

  /**
   * Stores a changed integration (in memory) with the next version and announces it, in `tx`: the
   * one way a change of an existing integration reaches the table and integration.upserted.
   */
  async storeChange(tx: TransactionContext, integration: IntegrationEntity, now: Date): Promise<void> {
    integration.version += 1;
    integration.updatedAt = now;
    await tx.manager.update(
      IntegrationEntity,
      { id: integration.id },
      {
        providerRestaurantId: integration.providerRestaurantId,
        providerRestaurantKey: integration.providerRestaurantKey === null ? null : identityKey(integration.providerRestaurantId),
        isActive: integration.isActive,
        settings: integration.settings,
        secrets: integration.secrets,
        displacedAt: integration.displacedAt,
        verifiedAt: integration.verifiedAt,
        verifiedBy: integration.verifiedBy,
        verificationState: integration.verificationState,
        verificationVerifiedAt: integration.verificationVerifiedAt,
        verificationDetail: integration.verificationDetail,
        verificationFingerprint: integration.verificationFingerprint,
        verificationAttemptedAt: integration.verificationAttemptedAt,
        posReadyFingerprint: integration.posReadyFingerprint,
        version: integration.version,
        updatedAt: now,
      },
    );
    await tx.publish(RoutingKey.IntegrationUpserted, integrationUpsertedEvent(integration, now));
  }

  async delete(tx: TransactionContext, id: string): Promise<void> {
    await tx.manager.delete(IntegrationEntity, { id });
  }

  /**
   * Whether another integration holds what `integration` claims (the same identity key, or the same
   * exact id for a row without one): any of this account's own with its platform restaurant, and with `acrossAccounts` any live (not displaced) one of any account.
   */
  async isClaimedByAnother(tx: TransactionContext, integration: IntegrationEntity, acrossAccounts: boolean): Promise<boolean> {
    const rows: unknown[] = await tx.manager.query(
      `SELECT 1 FROM integrations WHERE platform = $2 AND (provider_restaurant_key = $5 OR provider_restaurant_id = $3) AND id <> $4
          AND (restaurant_id = $1 ${acrossAccounts ? 'OR displaced_at IS NULL' : ''}) LIMIT 1`,
      [integration.restaurantId, integration.platform, integration.providerRestaurantId, integration.id, identityKey(integration.providerRestaurantId)],
    );
    return rows.length > 0;
  }

  /** The live holder of a platform restaurant, locked. */
  lockHolder(tx: TransactionContext, platform: string, providerRestaurantId: string): Promise<IntegrationEntity | null> {
    return tx.manager.findOne(IntegrationEntity, { where: { platform, providerRestaurantId, displacedAt: IsNull() }, lock: { mode: 'pessimistic_write' } });
  }

  /** The receiving integration and the live holder of the platform restaurant, locked by one statement in id order (two transfers cannot deadlock). */
  lockForTransfer(tx: TransactionContext, toIntegrationId: string, platform: string, providerRestaurantId: string): Promise<IntegrationEntity[]> {
    return tx.manager.find(IntegrationEntity, {
      where: [{ id: toIntegrationId }, { platform, providerRestaurantId, displacedAt: IsNull() }],
      order: { id: 'ASC' },
      lock: { mode: 'pessimistic_write' },
    });
  }

  /** An operator's confirmation of the holder: not a change of the integration's record (no new version, no event). */
  async markVerified(tx: TransactionContext, id: string, verifiedAt: Date, verifiedBy: string): Promise<void> {
    await tx.manager.update(IntegrationEntity, { id }, { verifiedAt, verifiedBy });
  }

  findById(id: string): Promise<IntegrationEntity | null> {
    return this.dataSource.getRepository(IntegrationEntity).findOne({ where: { id } });
  }

  lockById(tx: TransactionContext, id: string): Promise<IntegrationEntity | null> {
    return tx.manager.findOne(IntegrationEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  /** A verdict that changes no state (same state again, or no verdict): its detail and time, no new version, no event. */
  async storeVerificationAttempt(tx: TransactionContext, integration: IntegrationEntity): Promise<void> {
    await tx.manager.update(
      IntegrationEntity,
      { id: integration.id },
      {
        verificationVerifiedAt: integration.verificationVerifiedAt,
        verificationDetail: integration.verificationDetail,
        verificationFingerprint: integration.verificationFingerprint,
        verificationAttemptedAt: integration.verificationAttemptedAt,
      },
    );
  }

  /**
   * Claims up to `limit` unverified platform integrations not attempted for `olderThanMs` (marking them
   * attempted now), so that replicas running the periodic retry check each one once per period.
   */
  async claimUnverified(limit: number, olderThanMs: number): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `UPDATE integrations SET verification_attempted_at = now()
        WHERE id IN (SELECT id FROM integrations
                      WHERE verification_state = 'unverified' AND platform <> $3 AND displaced_at IS NULL
                        AND (verification_attempted_at IS NULL OR verification_attempted_at < now() - make_interval(secs => $2::float8 / 1000))
                      ORDER BY verification_attempted_at NULLS FIRST LIMIT $1 FOR UPDATE SKIP LOCKED)
        RETURNING id::text AS id`,
      [limit, olderThanMs, THIRD_PARTY_CODE],
    );
    return (Array.isArray(rows[0]) ? (rows[0] as Array<{ id: string }>) : rows).map((row) => row.id);
  }

  /** Verified, active integrations of these platforms whose platform was not told yet that they are ready (the adapter's announcePosReady). */
  async awaitingPosReady(platforms: string[], limit: number): Promise<string[]> {
    if (platforms.length === 0) return [];
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `SELECT id::text AS id FROM integrations
        WHERE platform = ANY($1) AND verification_state = 'verified' AND is_active AND displaced_at IS NULL
          AND pos_ready_fingerprint IS DISTINCT FROM verification_fingerprint
        ORDER BY updated_at LIMIT $2`,
      [platforms, limit],
    );
    return rows.map((row) => row.id);
  }

  /** The platform was told the integration is ready, for these credentials: kept unless they changed meanwhile. */
  async markPosReady(id: string, fingerprint: string): Promise<void> {
    await this.dataSource.query('UPDATE integrations SET pos_ready_fingerprint = $2 WHERE id = $1 AND verification_fingerprint = $2', [id, fingerprint]);
  }

  /** Ids (after `after`, in order) of integrations with a secret whose ciphertext does not start as `currentPrefix` (a LIKE pattern). */
  async idsWithStaleSecrets(after: string, currentPrefix: string, limit: number): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `SELECT id::text AS id FROM integrations
        WHERE id::text > $1 AND EXISTS (SELECT 1 FROM jsonb_each_text(secrets) s WHERE s.value NOT LIKE $2)
        ORDER BY id::text LIMIT $3`,
      [after, currentPrefix, limit],
    );
    return rows.map((row) => row.id);
  }

  lockMany(tx: TransactionContext, ids: string[]): Promise<IntegrationEntity[]> {
    return tx.manager.find(IntegrationEntity, { where: { id: In(ids) }, lock: { mode: 'pessimistic_write' } });
  }

  /** New ciphertexts of the same secrets (re-encryption): a new version; the caller announces it. */
  async storeSecrets(tx: TransactionContext, integration: IntegrationEntity): Promise<void> {
    await tx.manager.update(IntegrationEntity, { id: integration.id }, { secrets: integration.secrets, version: integration.version });
  }
}
