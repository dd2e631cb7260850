import { Injectable, Logger } from '@nestjs/common';
import { ErrorCode } from '@courier/contracts';
import { identityKey } from '@courier/domain';
import { ProblemException } from '@courier/http';
import { isUniqueViolation } from '@courier/persistence';
import { TransactionContext, UnitOfWork } from '@courier/messaging';
import { holdsPlatformRestaurant, PlatformRegistry, RegisteredPlatform } from '@courier/platforms';
import { isUuid } from '../common/ids';
import { IntegrationEntity } from '../integrations/integration.entity';
import { IntegrationVerificationService, resetVerification } from '../integration-verification/integration-verification.service';
import { IntegrationsRepository } from '../repositories/integrations.repository';
import type { PlatformRestaurantIntegration } from '../repositories/platform-restaurants.model';
import { PlatformRestaurantsRepository } from '../repositories/platform-restaurants.repository';
import { PlatformRestaurantDto, PlatformRestaurantIntegrationDto, PlatformRestaurantQuery, TransferPlatformRestaurantDto, VerifyPlatformRestaurantDto } from './dto/platform-restaurant.dto';

const HISTORY_LENGTH = 20;

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
    private readonly integrations: IntegrationsRepository,
    private readonly platformRestaurants: PlatformRestaurantsRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly registry: PlatformRegistry,
    private readonly verification: IntegrationVerificationService,
  ) {}

  async lookup(query: PlatformRestaurantQuery): Promise<PlatformRestaurantDto> {
    const platform = this.deliveryPlatform(query.platform);
    const view = await this.view(platform, query.providerRestaurantId);
    await this.platformRestaurants.record({
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
      const holder = await this.integrations.lockHolder(tx, platform.code, request.providerRestaurantId);
      if (!holder || !isUuid(request.integrationId) || holder.id !== request.integrationId.toLowerCase()) {
        throw new ProblemException(409, ErrorCode.Conflict, 'This integration does not hold the platform restaurant (any more): look it up again.');
      }
      await this.integrations.markVerified(tx, holder.id, new Date(), request.operator);
      await this.platformRestaurants.record(
        { action: 'verify', platform: platform.code, providerRestaurantId: request.providerRestaurantId, integrationId: holder.id, operator: request.operator, note: request.note },
        tx,
      );
      return this.view(platform, request.providerRestaurantId, tx);
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
        const locked = await this.integrations.lockForTransfer(tx, toId, platform.code, request.providerRestaurantId);
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
          await this.integrations.storeChange(tx, previous, now);
        }
        const alreadyHolds = target.providerRestaurantId === request.providerRestaurantId && target.displacedAt === null;
        if (!alreadyHolds) target.providerRestaurantKey = identityKey(request.providerRestaurantId);
        target.providerRestaurantId = request.providerRestaurantId;
        target.displacedAt = null;
        target.verifiedAt = now;
        target.verifiedBy = request.operator;
        if (alreadyHolds) await this.integrations.markVerified(tx, target.id, now, request.operator);
        else {
          // The operator settles who holds the restaurant; the platform still has to accept the receiver's credentials for it.
          resetVerification(target, now, 'The platform restaurant was transferred to this integration: verification with the platform pending.');
          await this.integrations.storeChange(tx, target, now);
        }
        await this.platformRestaurants.record(
          {
          action: 'transfer',
          platform: platform.code,
          providerRestaurantId: request.providerRestaurantId,
          integrationId: target.id,
          previousIntegrationId: previous?.id ?? null,
          operator: request.operator,
          note: request.note,
          },
          tx,
        );
        return this.view(platform, request.providerRestaurantId, tx);
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
    if (receiver.verificationState === 'unverified') this.verification.verifySoon(receiver.id);
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

  private async view(platform: RegisteredPlatform, providerRestaurantId: string, tx?: TransactionContext): Promise<PlatformRestaurantDto> {
    const integrations = await this.platformRestaurants.integrationsOf(platform.code, providerRestaurantId, tx);
    const history = await this.platformRestaurants.history(platform.code, providerRestaurantId, HISTORY_LENGTH, tx);
    const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);
    const present = (integration: PlatformRestaurantIntegration): PlatformRestaurantIntegrationDto => ({
      integrationId: integration.integrationId,
      restaurantId: integration.restaurantId,
      restaurantName: integration.restaurantName,
      accountStatus: integration.accountStatus,
      isActive: integration.isActive,
      displacedAt: iso(integration.displacedAt),
      verifiedAt: iso(integration.verifiedAt),
      verifiedBy: integration.verifiedBy,
      createdAt: iso(integration.createdAt)!,
      updatedAt: iso(integration.updatedAt)!,
    });
    const holder = integrations.find((integration) => integration.displacedAt === null);
    return {
      platform: platform.wireCode,
      providerRestaurantId,
      holder: holder ? present(holder) : null,
      displaced: integrations.filter((integration) => integration.displacedAt !== null).map(present),
      history: history.map((entry) => ({
        action: entry.action,
        integrationId: entry.integrationId,
        previousIntegrationId: entry.previousIntegrationId,
        operator: entry.operator,
        note: entry.note,
        occurredAt: iso(entry.occurredAt)!,
      })),
    };
  }
}
