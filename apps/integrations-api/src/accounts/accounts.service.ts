import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AccountStatus, ErrorCode, RoutingKey } from '@courier/contracts';
import { identityKey } from '@courier/domain';
import { generateWebhookSigningSecret, hashCredential, SecretBox, secretBinding } from '@courier/crypto';
import { decodeCursor, encodeCursor, ProblemException } from '@courier/http';
import { UnitOfWork } from '@courier/messaging';
import { THIRD_PARTY_CODE } from '@courier/platforms';
import { isRestaurantId, newRestaurantId } from '../common/ids';
import { WebhookUrlPolicy } from '../common/webhook-url.policy';
import { INITIAL_VERIFICATION } from '../integration-verification/integration-verification.service';
import { IntegrationEntity } from '../integrations/integration.entity';
import { integrationUpsertedEvent } from '../integrations/integration-events';
import { AccountsRepository } from '../repositories/accounts.repository';
import { IntegrationsRepository } from '../repositories/integrations.repository';
import { ApiKeyPair, newApiKeyPair } from './credentials';
import { RestaurantEntity } from './restaurant.entity';

/** An account with its THIRD_PARTY integration (null when the customer deleted it). */
export interface AccountState {
  restaurant: RestaurantEntity;
  thirdParty: IntegrationEntity | null;
}

export interface NewAccount {
  name: string;
  providerRestaurantId?: string;
  statusUrl?: string;
  cancelUrl?: string;
  generateSigningSecret?: boolean;
}

/** What account creation shows once: the key pair and, when asked for, the signing secret. */
export interface CreatedAccount extends AccountState, ApiKeyPair {
  signingSecret?: string;
}

export interface AccountPage {
  accounts: AccountState[];
  nextCursor: string | null;
}

export function restaurantNotFound(): ProblemException {
  return new ProblemException(404, ErrorCode.RestaurantNotFound, 'No restaurant account with this id.');
}

/**
 * Restaurant accounts: provisioning, key rotation, enabling and disabling, authentication. Every
 * change is published as an account event in the transaction that makes it.
 */
@Injectable()
export class AccountsService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly integrations: IntegrationsRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly secretBox: SecretBox,
    private readonly urlPolicy: WebhookUrlPolicy,
  ) {}

  /** Creates an account, active, with its THIRD_PARTY integration (active). */
  async create(request: NewAccount): Promise<CreatedAccount> {
    const urls = await this.urlPolicy.check({ statusUrl: request.statusUrl, cancelUrl: request.cancelUrl });
    const keys = newApiKeyPair();
    const signingSecret = request.generateSigningSecret ? generateWebhookSigningSecret() : undefined;
    const now = new Date();
    const restaurantId = newRestaurantId();
    const restaurant: RestaurantEntity = {
      id: restaurantId,
      name: request.name,
      status: 'active',
      apiKeyHash: hashCredential(keys.apiKey),
      apiSecretHash: hashCredential(keys.apiSecret),
      webhookStatusUrl: urls.statusUrl ?? null,
      webhookCancelUrl: urls.cancelUrl ?? null,
      webhookSigningSecret: signingSecret ? this.secretBox.encrypt(signingSecret, secretBinding.webhookSigningSecret(restaurantId)) : null,
      webhookPreviousSigningSecret: null,
      webhookPreviousSigningSecretValidUntil: null,
      version: 1,
      createdAt: now,
      updatedAt: now,
    };
    const thirdParty: IntegrationEntity = {
      id: randomUUID(),
      restaurantId: restaurant.id,
      platform: THIRD_PARTY_CODE,
      providerRestaurantId: request.providerRestaurantId ?? restaurant.id,
      providerRestaurantKey: identityKey(request.providerRestaurantId ?? restaurant.id),
      isActive: true,
      settings: {},
      secrets: {},
      version: 1,
      displacedAt: null,
      verifiedAt: null,
      verifiedBy: null,
      ...INITIAL_VERIFICATION(THIRD_PARTY_CODE, now),
      createdAt: now,
      updatedAt: now,
    };
    await this.unitOfWork.run(async (tx) => {
      await this.accounts.insert(tx, restaurant);
      await this.integrations.insert(tx, thirdParty);
      await this.accounts.publishSnapshot(tx, RoutingKey.AccountCreated, restaurant, now);
      await tx.publish(RoutingKey.IntegrationUpserted, integrationUpsertedEvent(thirdParty, now));
    });
    return { restaurant, thirdParty, ...keys, ...(signingSecret ? { signingSecret } : {}) };
  }

  async list(options: { limit: number; cursor?: string; status?: AccountStatus }): Promise<AccountPage> {
    const after = options.cursor !== undefined ? decodeCursor(options.cursor, isRestaurantId) : undefined;
    if (options.cursor !== undefined && !after) {
      throw new ProblemException(422, ErrorCode.ValidationError, 'The request has invalid fields.', [{ field: 'cursor', message: 'is not a cursor of this list' }]);
    }
    const rows = await this.accounts.page({ take: options.limit + 1, status: options.status, after });
    const page = rows.slice(0, options.limit);
    const last = page[page.length - 1];
    return { accounts: await this.withThirdParty(page), nextCursor: rows.length > options.limit && last ? encodeCursor(last) : null };
  }

  async get(restaurantId: string): Promise<AccountState> {
    if (!isRestaurantId(restaurantId)) throw restaurantNotFound();
    const restaurant = await this.accounts.findById(restaurantId);
    if (!restaurant) throw restaurantNotFound();
    const [state] = await this.withThirdParty([restaurant]);
    return state;
  }

  /** Disables or re-enables an account; doing it twice changes nothing the second time. */
  async setStatus(restaurantId: string, status: AccountStatus): Promise<AccountState> {
    if (!isRestaurantId(restaurantId)) throw restaurantNotFound();
    const key = status === 'disabled' ? RoutingKey.AccountDisabled : RoutingKey.AccountUpdated;
    const changed = await this.unitOfWork.run((tx) =>
      this.accounts.change(tx, key, restaurantId, (restaurant) => {
        if (restaurant.status === status) return false;
        restaurant.status = status;
      }),
    );
    if (!changed) throw restaurantNotFound();
    return this.get(restaurantId);
  }

  /** Replaces the key pair; the old pair stops working at once. Returns the new pair (shown once). */
  async rotateKeys(restaurantId: string): Promise<ApiKeyPair & { rotatedAt: Date }> {
    if (!isRestaurantId(restaurantId)) throw restaurantNotFound();
    const keys = newApiKeyPair();
    const changed = await this.unitOfWork.run((tx) =>
      this.accounts.change(tx, RoutingKey.AccountKeysRotated, restaurantId, (restaurant) => {
        restaurant.apiKeyHash = hashCredential(keys.apiKey);
        restaurant.apiSecretHash = hashCredential(keys.apiSecret);
      }),
    );
    if (!changed) throw restaurantNotFound();
    return { ...keys, rotatedAt: changed.updatedAt };
  }

  private async withThirdParty(restaurants: RestaurantEntity[]): Promise<AccountState[]> {
    if (restaurants.length === 0) return [];
    const integrations = await this.integrations.thirdParties(restaurants.map((restaurant) => restaurant.id));
    const byRestaurant = new Map(integrations.map((integration) => [integration.restaurantId, integration]));
    return restaurants.map((restaurant) => ({ restaurant, thirdParty: byRestaurant.get(restaurant.id) ?? null }));
  }
}
