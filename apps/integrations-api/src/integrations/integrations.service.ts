import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ErrorCode, FieldError, RoutingKey } from '@courier/contracts';
import { identityKey } from '@courier/domain';
import { isMaskedSecret, SecretBox, secretBinding } from '@courier/crypto';
import { decodeCursor, DEFAULT_PAGE_SIZE, encodeCursor, ProblemException } from '@courier/http';
import { isUniqueViolation } from '@courier/persistence';
import { TransactionContext, UnitOfWork } from '@courier/messaging';
import { holdsPlatformRestaurant, PlatformRegistry, THIRD_PARTY_CODE, validateIntegrationCreate, validateIntegrationUpdate } from '@courier/platforms';
import { RestaurantEntity } from '../accounts/restaurant.entity';
import { isUuid } from '../common/ids';
import { ListIntegrationsQuery } from './dto/list-integrations.query';
import { IntegrationEntity } from './integration.entity';
import { AccountsRepository } from '../repositories/accounts.repository';
import { IntegrationsRepository } from '../repositories/integrations.repository';
import { integrationDeletedEvent, integrationUpsertedEvent } from './integration-events';
import { IntegrationPresenter, IntegrationRecord } from './integration.presenter';
import { INITIAL_VERIFICATION, IntegrationVerificationService, resetVerification } from '../integration-verification/integration-verification.service';

const PENDING_NEW = 'Verification with the platform pending.';
const PENDING_CHANGED = 'The credentials or providerRestaurantId changed: verification with the platform pending.';

export interface IntegrationPage {
  data: IntegrationRecord[];
  nextCursor: string | null;
}

const UNIQUE_CONSTRAINTS = [
  'integrations_restaurant_platform_provider_key',
  'integrations_one_third_party_key',
  'integrations_platform_restaurant_key',
  'integrations_restaurant_platform_identity_key',
  'integrations_platform_restaurant_identity_key',
];

function notFound(): ProblemException {
  return new ProblemException(404, ErrorCode.IntegrationNotFound, 'No integration with this id.');
}

/**
 * One answer whoever holds the restaurant, this account or another: nothing about another account
 * may leak (not even that one exists apart from this account's own).
 */
export function integrationExists(): ProblemException {
  return new ProblemException(
    409,
    ErrorCode.IntegrationExists,
    'An integration already holds this platform restaurant (platform and providerRestaurantId), or, for THIRD_PARTY, this account has its THIRD_PARTY integration. ' +
      'A platform restaurant belongs to one integration; if it is yours on the platform, ask support to verify it and transfer it to your integration.',
  );
}

function invalid(errors: FieldError[]): ProblemException {
  return new ProblemException(422, ErrorCode.ValidationError, 'The request has invalid fields.', errors);
}


/** Refuses a client sending back the mask it was shown instead of a secret. */
const VALIDATION_OPTIONS = {
  refuseSecret: (value: string) =>
    isMaskedSecret(value) ? 'holds a mask (****...), not a secret: send the new value, or leave the field out to keep it' : undefined,
};

/**
 * The integrations of one account ("my" integrations). Each change and its event are written in
 * one transaction; a change of the THIRD_PARTY integration is also an account change (intake
 * decides by it), so it publishes account.updated too.
 */
@Injectable()
export class IntegrationsService {
  constructor(
    private readonly integrations: IntegrationsRepository,
    private readonly accounts: AccountsRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly registry: PlatformRegistry,
    private readonly secretBox: SecretBox,
    private readonly presenter: IntegrationPresenter,
    private readonly verification: IntegrationVerificationService,
  ) {}

  async list(restaurant: RestaurantEntity, query: ListIntegrationsQuery): Promise<IntegrationPage> {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const errors: FieldError[] = [];
    const platform = query.platform !== undefined ? this.registry.byWireCode(query.platform) : undefined;
    if (query.platform !== undefined && !platform) errors.push({ field: 'platform', message: `must be one of ${this.registry.list().map((entry) => entry.wireCode).join(', ')}` });
    const after = query.cursor !== undefined ? decodeCursor(query.cursor, isUuid) : undefined;
    if (query.cursor !== undefined && !after) errors.push({ field: 'cursor', message: 'is not a cursor of this list' });
    if (errors.length > 0) throw invalid(errors);
    const rows = await this.integrations.page(restaurant.id, {
      take: limit + 1,
      platform: platform?.code,
      isActive: query.isActive === undefined ? undefined : query.isActive === 'true',
      after,
    });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { data: page.map((row) => this.presenter.toRecord(row)), nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
  }

  async get(restaurant: RestaurantEntity, id: string): Promise<IntegrationRecord> {
    if (!isUuid(id)) throw notFound();
    const integration = await this.integrations.findOwn(restaurant.id, id);
    if (!integration) throw notFound();
    return this.presenter.toRecord(integration);
  }

  async create(restaurant: RestaurantEntity, body: unknown): Promise<IntegrationRecord> {
    const validation = validateIntegrationCreate(this.registry, body, VALIDATION_OPTIONS);
    if (!validation.ok) throw invalid(validation.errors);
    const { input } = validation;

    const now = new Date();
    const id = randomUUID();
    const integration: IntegrationEntity = {
      id,
      restaurantId: restaurant.id,
      platform: input.platform.code,
      providerRestaurantId: input.providerRestaurantId!,
      providerRestaurantKey: identityKey(input.providerRestaurantId!),
      isActive: input.isActive ?? true,
      settings: input.settings,
      secrets: Object.fromEntries(Object.entries(input.secrets).map(([field, value]) => [field, this.secretBox.encrypt(value, secretBinding.integrationSecret(id, field))])),
      version: 1,
      displacedAt: null,
      verifiedAt: null,
      verifiedBy: null,
      ...INITIAL_VERIFICATION(input.platform.code, now),
      createdAt: now,
      updatedAt: now,
    };
    resetVerification(integration, now, PENDING_NEW);
    await this.writeOrConflict(async (tx) => {
      if (!(await this.integrations.insertIfFree(tx, integration))) throw integrationExists();
      await tx.publish(RoutingKey.IntegrationUpserted, integrationUpsertedEvent(integration, now));
      if (integration.platform === THIRD_PARTY_CODE) await this.accounts.change(tx, RoutingKey.AccountUpdated, restaurant.id);
    });
    if (integration.verificationState === 'unverified') this.verification.verifySoon(integration.id);
    return this.presenter.toRecord(integration);
  }

  /** Partial update: only the fields sent change; sending what is already stored changes nothing. */
  async update(restaurant: RestaurantEntity, id: string, body: unknown): Promise<IntegrationRecord> {
    if (!isUuid(id)) throw notFound();
    return this.change(restaurant, id, (integration) => {
      const validation = validateIntegrationUpdate(this.registry, integration.platform, body, VALIDATION_OPTIONS);
      if (!validation.ok) throw invalid(validation.errors);
      const { input } = validation;

      let changed = false;
      if (input.providerRestaurantId !== undefined && input.providerRestaurantId !== integration.providerRestaurantId) {
        integration.providerRestaurantId = input.providerRestaurantId;
        integration.providerRestaurantKey = identityKey(input.providerRestaurantId);
        changed = true;
      }
      if (input.isActive !== undefined && input.isActive !== integration.isActive) {
        integration.isActive = input.isActive;
        changed = true;
      }
      for (const [field, value] of Object.entries(input.settings)) {
        if (integration.settings[field] === value) continue;
        integration.settings = { ...integration.settings, [field]: value };
        changed = true;
      }
      for (const [field, value] of Object.entries(input.secrets)) {
        if (this.holds(integration, field, value)) continue;
        integration.secrets = { ...integration.secrets, [field]: this.secretBox.encrypt(value, secretBinding.integrationSecret(integration.id, field)) };
        changed = true;
      }
      return changed;
    });
  }

  /** activate / deactivate; a second call in the same direction is a no-op (200, no event). */
  async setActive(restaurant: RestaurantEntity, id: string, isActive: boolean): Promise<IntegrationRecord> {
    if (!isUuid(id)) throw notFound();
    return this.change(restaurant, id, (integration) => {
      if (integration.isActive === isActive) return false;
      integration.isActive = isActive;
      return true;
    });
  }

  async remove(restaurant: RestaurantEntity, id: string): Promise<void> {
    if (!isUuid(id)) throw notFound();
    await this.unitOfWork.run(async (tx) => {
      const integration = await this.lockOwn(tx, restaurant, id);
      await this.integrations.delete(tx, integration.id);
      await tx.publish(RoutingKey.IntegrationDeleted, integrationDeletedEvent(integration, new Date()));
      if (integration.platform === THIRD_PARTY_CODE) await this.accounts.change(tx, RoutingKey.AccountUpdated, restaurant.id);
    });
  }

  /** Locks the integration, lets `apply` change it in memory, and stores and announces the change if any. */
  private async change(restaurant: RestaurantEntity, id: string, apply: (integration: IntegrationEntity) => boolean): Promise<IntegrationRecord> {
    const after = { verify: false, announce: false };
    const result = await this.writeOrConflict(async (tx) => {
      const integration = await this.lockOwn(tx, restaurant, id);
      const before = {
        providerRestaurantId: integration.providerRestaurantId,
        isActive: integration.isActive,
        displacedAt: integration.displacedAt,
        credentials: JSON.stringify([integration.settings, integration.secrets]),
      };
      if (!apply(integration)) return integration;
      const newRestaurant = before.providerRestaurantId !== integration.providerRestaurantId;
      if (newRestaurant) {
        // The operator's verification was of the old restaurant.
        integration.verifiedAt = null;
        integration.verifiedBy = null;
      }
      const now = new Date();
      // The platform's verdict was about the old credentials or restaurant (ciphertexts change only with the values: see holds()).
      if (newRestaurant || before.credentials !== JSON.stringify([integration.settings, integration.secrets])) {
        resetVerification(integration, now, PENDING_CHANGED);
        after.verify = integration.verificationState === 'unverified';
      }
      // Deactivated: the platform hears again that it is ready when it is activated.
      if (!integration.isActive) integration.posReadyFingerprint = null;
      after.announce = !before.isActive && integration.isActive && integration.verificationState === 'verified';
      // A displaced integration claims its restaurant again when activated or given another one.
      if (integration.displacedAt !== null && (integration.isActive || newRestaurant)) integration.displacedAt = null;
      const claims = newRestaurant || (before.displacedAt !== null && integration.displacedAt === null);
      if (claims && (await this.taken(tx, integration))) throw integrationExists();
      await this.integrations.storeChange(tx, integration, now);
      const accountVisible = before.providerRestaurantId !== integration.providerRestaurantId || before.isActive !== integration.isActive;
      if (integration.platform === THIRD_PARTY_CODE && accountVisible) await this.accounts.change(tx, RoutingKey.AccountUpdated, restaurant.id);
      return integration;
    });
    if (after.verify) this.verification.verifySoon(result.id);
    else if (after.announce) this.verification.announceSoon(result.id);
    return this.presenter.toRecord(result);
  }

  private async lockOwn(tx: TransactionContext, restaurant: RestaurantEntity, id: string): Promise<IntegrationEntity> {
    const integration = await this.integrations.lockOwn(tx, restaurant.id, id);
    if (!integration) throw notFound();
    return integration;
  }

  /** Whether the stored secret already equals `value` (so re-sending it is not a change). */
  private holds(integration: IntegrationEntity, field: string, value: string): boolean {
    const ciphertext = integration.secrets[field];
    if (!ciphertext) return false;
    try {
      return this.secretBox.decrypt(ciphertext, secretBinding.integrationSecret(integration.id, field)) === value;
    } catch {
      return false;
    }
  }

  /**
   * Whether another integration holds what `integration` claims: for a delivery platform, any live
   * (not displaced) integration of any account with its platform restaurant, and any of this account's
   * own; for THIRD_PARTY (the customer's own label), one of this account's only.
   */
  private taken(tx: TransactionContext, integration: IntegrationEntity): Promise<boolean> {
    return this.integrations.isClaimedByAnother(tx, integration, holdsPlatformRestaurant(this.registry.byCode(integration.platform) ?? {}));
  }

  private async writeOrConflict<T>(work: (tx: TransactionContext) => Promise<T>): Promise<T> {
    try {
      return await this.unitOfWork.run(work);
    } catch (error) {
      // Two requests racing past the checks: the unique constraints decide.
      if (isUniqueViolation(error, UNIQUE_CONSTRAINTS)) throw integrationExists();
      throw error;
    }
  }
}
