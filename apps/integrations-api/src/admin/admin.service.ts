import { Injectable } from '@nestjs/common';
import { SecretBox } from '@courier/crypto';
import { UnitOfWork } from '@courier/messaging';
import { thirdPartyView } from '../accounts/account.presenter';
import { AccountsService, AccountState } from '../accounts/accounts.service';
import { DEFAULT_PAGE_SIZE } from '@courier/http';
import { AccountsRepository } from '../repositories/accounts.repository';
import { IntegrationsRepository } from '../repositories/integrations.repository';
import { ReencryptionReport, SecretsReencryption } from '../secrets/secrets-reencryption';
import { CreateRestaurantDto } from './dto/create-restaurant.dto';
import { ListRestaurantsQuery } from './dto/list-restaurants.query';
import { CreatedRestaurantDto, RestaurantDto, RestaurantPageDto, RotatedKeysDto } from './dto/restaurant.dto';

export function restaurantView({ restaurant, thirdParty }: AccountState): RestaurantDto {
  return {
    restaurantId: restaurant.id,
    name: restaurant.name,
    status: restaurant.status,
    thirdParty: thirdPartyView(thirdParty),
    webhooks: { statusUrl: restaurant.webhookStatusUrl, cancelUrl: restaurant.webhookCancelUrl, signingEnabled: restaurant.webhookSigningSecret !== null },
    version: restaurant.version,
    createdAt: restaurant.createdAt.toISOString(),
    updatedAt: restaurant.updatedAt.toISOString(),
  };
}

/** The operator's side of accounts: what the admin API and its CLI do. */
@Injectable()
export class AdminService {
  constructor(
    private readonly accounts: AccountsService,
    private readonly accountRows: AccountsRepository,
    private readonly integrations: IntegrationsRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly secretBox: SecretBox,
  ) {}

  async create(request: CreateRestaurantDto): Promise<CreatedRestaurantDto> {
    const created = await this.accounts.create(request);
    return {
      ...restaurantView(created),
      apiKey: created.apiKey,
      apiSecret: created.apiSecret,
      ...(created.signingSecret ? { signingSecret: created.signingSecret } : {}),
    };
  }

  async list(query: ListRestaurantsQuery): Promise<RestaurantPageDto> {
    const page = await this.accounts.list({ limit: query.limit ?? DEFAULT_PAGE_SIZE, cursor: query.cursor, status: query.status });
    return { data: page.accounts.map(restaurantView), nextCursor: page.nextCursor };
  }

  async get(restaurantId: string): Promise<RestaurantDto> {
    return restaurantView(await this.accounts.get(restaurantId));
  }

  async setStatus(restaurantId: string, status: 'active' | 'disabled'): Promise<RestaurantDto> {
    return restaurantView(await this.accounts.setStatus(restaurantId, status));
  }

  async rotateKeys(restaurantId: string): Promise<RotatedKeysDto> {
    const rotated = await this.accounts.rotateKeys(restaurantId);
    return { restaurantId, apiKey: rotated.apiKey, apiSecret: rotated.apiSecret, rotatedAt: rotated.rotatedAt.toISOString() };
  }

  reencryptSecrets(): Promise<ReencryptionReport> {
    return new SecretsReencryption(this.accountRows, this.integrations, this.unitOfWork, this.secretBox).run();
  }
}
