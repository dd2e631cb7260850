import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { ErrorCode } from '@courier/contracts';
import { ProblemException } from '@courier/http';
import { isUniqueViolation } from '@courier/persistence';
import { UnitOfWork } from '@courier/messaging';
import { holdsPlatformRestaurant, PlatformRegistry, RegisteredPlatform } from '@courier/platforms';
import { isUuid } from '../common/ids';
import { IntegrationEntity } from '../integrations/integration.entity';
import { storeIntegrationChange } from '../integrations/integration-events';
import { PlatformRestaurantDto, PlatformRestaurantIntegrationDto, PlatformRestaurantQuery, TransferPlatformRestaurantDto, VerifyPlatformRestaurantDto } from './dto/platform-restaurant.dto';

type AuditAction = 'lookup' | 'verify' | 'transfer';

interface AuditEntry {
  action: AuditAction;
  platform: string;
  providerRestaurantId: string;
  integrationId: string | null;
  previousIntegrationId?: string | null;
  operator: string | null;
  note?: string | null;
}

const HISTORY_LENGTH = 20;

interface IntegrationRow {
  id: string;
  restaurant_id: string;
  name: string;
  status: string;
  is_active: boolean;
  displaced_at: Date | null;
  verified_at: Date | null;
  verified_by: string | null;
  created_at: Date;
  updated_at: Date;
}

interface AuditRow {
  action: string;
  integration_id: string | null;
  previous_integration_id: string | null;
  operator: string | null;
  note: string | null;
  occurred_at: Date;
}

function integrationNotFound(): ProblemException {
  return new ProblemException(404, ErrorCode.IntegrationNotFound, 'No integration with this id.');
}

/**
 * The operator's side of disputed platform restaurants: who holds one, confirming the holder, and
 * handing the restaurant to another account's integration. Each action is logged and recorded in
 * platform_restaurant_audit; a transfer's changes and events are one transaction.
 */
@Injectable()
export class PlatformRestaurantsService {
  private readonly logger = new Logger('PlatformRestaurants');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly unitOfWork: UnitOfWork,
    private readonly registry: PlatformRegistry,
  ) {}

  async lookup(query: PlatformRestaurantQuery): Promise<PlatformRestaurantDto> {
    const platform = this.deliveryPlatform(query.platform);
    const view = await this.view(this.dataSource.manager, platform, query.providerRestaurantId);
    await this.record(this.dataSource.manager, {
      action: 'lookup',
      platform: platform.code,
      providerRestaurantId: query.providerRestaurantId,
      integrationId: view.holder?.integrationId ?? null,
      operator: query.operator ?? null,
    });
    this.logger.log(
      { action: 'lookup', platform: platform.code, providerRestaurantId: query.providerRestaurantId, holderIntegrationId: view.holder?.integrationId ?? null, operator: query.operator ?? null },
      'platform restaurant looked up',
    );
    return view;
  }

  /** Confirms that the integration holding the restaurant is its owner (compare-and-set on the holder). */
  async verify(request: VerifyPlatformRestaurantDto): Promise<PlatformRestaurantDto> {
    const platform = this.deliveryPlatform(request.platform);
    const view = await this.unitOfWork.run(async (tx) => {
      const holder = await this.lockHolder(tx.manager, platform, request.providerRestaurantId);
      if (!holder || !isUuid(request.integrationId) || holder.id !== request.integrationId.toLowerCase()) {
        throw new ProblemException(409, ErrorCode.Conflict, 'This integration does not hold the platform restaurant (any more): look it up again.');
      }
      await tx.manager.update(IntegrationEntity, { id: holder.id }, { verifiedAt: new Date(), verifiedBy: request.operator });
      await this.record(tx.manager, { action: 'verify', platform: platform.code, providerRestaurantId: request.providerRestaurantId, integrationId: holder.id, operator: request.operator, note: request.note });
      return this.view(tx.manager, platform, request.providerRestaurantId);
    });
    this.logger.log(
      { action: 'verify', platform: platform.code, providerRestaurantId: request.providerRestaurantId, integrationId: view.holder!.integrationId, restaurantId: view.holder!.restaurantId, operator: request.operator },
      'platform restaurant holder verified',
    );
    return view;
  }

  /**
   * Gives the restaurant to `toIntegrationId`: the holder (if any) is deactivated and displaced, the
   * receiving integration takes the providerRestaurantId and is marked verified. Both changes and
   * their integration.upserted events are one transaction, the holder's first (the unique index
   * sees one holder at every statement).
   */
  async transfer(request: TransferPlatformRestaurantDto): Promise<PlatformRestaurantDto> {
    const platform = this.deliveryPlatform(request.platform);
    if (!isUuid(request.toIntegrationId)) throw integrationNotFound();
    const toId = request.toIntegrationId.toLowerCase();
    let previous: IntegrationEntity | undefined;
    let receiver!: IntegrationEntity;
    let view: PlatformRestaurantDto;
    try {
      view = await this.unitOfWork.run(async (tx) => {
        // One statement locks both rows, in id order, so that two transfers cannot deadlock.
        const locked = await tx.manager.find(IntegrationEntity, {
          where: [{ id: toId }, { platform: platform.code, providerRestaurantId: request.providerRestaurantId, displacedAt: IsNull() }],
          order: { id: 'ASC' },
          lock: { mode: 'pessimistic_write' },
        });
        const target = locked.find((integration) => integration.id === toId);
        if (!target) throw integrationNotFound();
        if (target.platform !== platform.code) {
          throw new ProblemException(422, ErrorCode.ValidationError, 'The request has invalid fields.', [
            { field: 'toIntegrationId', message: `is an integration of ${this.registry.wireCodeOf(target.platform)}, not of ${platform.wireCode}` },
          ]);
        }
        receiver = target;
        previous = locked.find((integration) => integration.id !== toId);
        const now = new Date();
        if (previous) {
          previous.isActive = false;
          previous.displacedAt = now;
          previous.verifiedAt = null;
          previous.verifiedBy = null;
          await storeIntegrationChange(tx, previous, now);
        }
        const alreadyHolds = target.providerRestaurantId === request.providerRestaurantId && target.displacedAt === null;
        target.providerRestaurantId = request.providerRestaurantId;
        target.displacedAt = null;
        target.verifiedAt = now;
        target.verifiedBy = request.operator;
        if (alreadyHolds) await tx.manager.update(IntegrationEntity, { id: target.id }, { verifiedAt: now, verifiedBy: request.operator });
        else await storeIntegrationChange(tx, target, now);
        await this.record(tx.manager, {
          action: 'transfer',
          platform: platform.code,
          providerRestaurantId: request.providerRestaurantId,
          integrationId: target.id,
          previousIntegrationId: previous?.id ?? null,
          operator: request.operator,
          note: request.note,
        });
        return this.view(tx.manager, platform, request.providerRestaurantId);
      });
    } catch (error) {
      // Another transfer gave the restaurant to a third integration after this one read the holder.
      if (isUniqueViolation(error, ['integrations_platform_restaurant_key'])) {
        throw new ProblemException(409, ErrorCode.Conflict, 'The platform restaurant changed hands during the transfer: look it up again.');
      }
      // The receiving account's other integration bearing this id (a displaced one): one per account.
      if (isUniqueViolation(error, ['integrations_restaurant_platform_provider_key'])) {
        throw new ProblemException(
          409,
          ErrorCode.IntegrationExists,
          'The receiving account has another integration with this platform restaurant (a displaced one): transfer the restaurant to that integration instead.',
        );
      }
      throw error;
    }
    this.logger.warn(
      {
        action: 'transfer',
        platform: platform.code,
        providerRestaurantId: request.providerRestaurantId,
        toIntegrationId: receiver.id,
        toRestaurantId: receiver.restaurantId,
        fromIntegrationId: previous?.id ?? null,
        fromRestaurantId: previous?.restaurantId ?? null,
        operator: request.operator,
      },
      'platform restaurant transferred',
    );
    return view;
  }

  private deliveryPlatform(wireCode: string): RegisteredPlatform {
    const platform = this.registry.byWireCode(wireCode);
    if (platform && holdsPlatformRestaurant(platform)) return platform;
    const codes = this.registry
      .list()
      .filter((entry) => holdsPlatformRestaurant(entry))
      .map((entry) => entry.wireCode);
    throw new ProblemException(422, ErrorCode.ValidationError, 'The request has invalid fields.', [{ field: 'platform', message: `must be a delivery platform: one of ${codes.join(', ')}` }]);
  }

  private lockHolder(manager: EntityManager, platform: RegisteredPlatform, providerRestaurantId: string): Promise<IntegrationEntity | null> {
    return manager.findOne(IntegrationEntity, {
      where: { platform: platform.code, providerRestaurantId, displacedAt: IsNull() },
      lock: { mode: 'pessimistic_write' },
    });
  }

  private async record(manager: EntityManager, entry: AuditEntry): Promise<void> {
    await manager.query(
      `INSERT INTO platform_restaurant_audit (action, platform, provider_restaurant_id, integration_id, previous_integration_id, operator, note)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [entry.action, entry.platform, entry.providerRestaurantId, entry.integrationId, entry.previousIntegrationId ?? null, entry.operator, entry.note ?? null],
    );
  }

  private async view(manager: EntityManager, platform: RegisteredPlatform, providerRestaurantId: string): Promise<PlatformRestaurantDto> {
    const integrations: IntegrationRow[] = await manager.query(
      `SELECT i.id, i.restaurant_id, r.name, r.status, i.is_active, i.displaced_at, i.verified_at, i.verified_by, i.created_at, i.updated_at
         FROM integrations i JOIN restaurants r ON r.id = i.restaurant_id
        WHERE i.platform = $1 AND i.provider_restaurant_id = $2
        ORDER BY i.created_at, i.id`,
      [platform.code, providerRestaurantId],
    );
    const history: AuditRow[] = await manager.query(
      `SELECT action, integration_id, previous_integration_id, operator, note, occurred_at FROM platform_restaurant_audit
        WHERE platform = $1 AND provider_restaurant_id = $2 AND action <> 'lookup'
        ORDER BY id DESC LIMIT ${HISTORY_LENGTH}`,
      [platform.code, providerRestaurantId],
    );
    const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);
    const present = (row: IntegrationRow): PlatformRestaurantIntegrationDto => ({
      integrationId: row.id,
      restaurantId: row.restaurant_id,
      restaurantName: row.name,
      accountStatus: row.status,
      isActive: row.is_active,
      displacedAt: iso(row.displaced_at),
      verifiedAt: iso(row.verified_at),
      verifiedBy: row.verified_by,
      createdAt: iso(row.created_at)!,
      updatedAt: iso(row.updated_at)!,
    });
    const holder = integrations.find((row) => row.displaced_at === null);
    return {
      platform: platform.wireCode,
      providerRestaurantId,
      holder: holder ? present(holder) : null,
      displaced: integrations.filter((row) => row.displaced_at !== null).map(present),
      history: history.map((row) => ({
        action: row.action,
        integrationId: row.integration_id,
        previousIntegrationId: row.previous_integration_id,
        operator: row.operator,
        note: row.note,
        occurredAt: iso(row.occurred_at)!,
      })),
    };
  }
}
