import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { RoutingKey } from '../routing-keys';
import { ACCOUNT_EVENT_PAYLOADS } from './account-events';

const snapshot = {
  restaurantId: 'rest_abcdefghijklmnopqrstuvwx',
  name: 'Demo',
  status: 'active',
  apiKeyHash: 'a'.repeat(64),
  apiSecretHash: 'b'.repeat(64),
  thirdParty: { integrationId: '7c0d7c1e-8f0a-4a0e-9d6a-0d6c2b1f4e21', providerRestaurantId: 'pos-1', isActive: true },
  webhooks: { statusUrl: 'https://example.com/s', cancelUrl: null, signingSecretCiphertext: null },
  version: 3,
  createdAt: '2025-01-01T00:00:00.000Z',
  occurredAt: '2025-01-01T00:00:00.000Z',
};

const valid = (key: keyof typeof ACCOUNT_EVENT_PAYLOADS, payload: unknown) =>
  validateSync(plainToInstance(ACCOUNT_EVENT_PAYLOADS[key] as new () => object, payload) as object, { forbidUnknownValues: true });

describe('account event payloads', () => {
  it('accept a whole snapshot on every account key', () => {
    for (const key of [RoutingKey.AccountCreated, RoutingKey.AccountUpdated, RoutingKey.AccountDisabled, RoutingKey.AccountKeysRotated, RoutingKey.WebhookSettingsChanged] as const) {
      expect(valid(key, snapshot)).toEqual([]);
      expect(valid(key, { ...snapshot, thirdParty: null })).toEqual([]);
    }
  });

  it('refuse a snapshot with a bad nested part or version', () => {
    expect(valid(RoutingKey.AccountUpdated, { ...snapshot, thirdParty: { isActive: 'yes' } })).not.toEqual([]);
    expect(valid(RoutingKey.AccountUpdated, { ...snapshot, version: 0 })).not.toEqual([]);
    expect(valid(RoutingKey.AccountUpdated, { ...snapshot, status: 'gone' })).not.toEqual([]);
  });

  it('describe integration upserts and deletions', () => {
    const record = {
      integrationId: '7c0d7c1e-8f0a-4a0e-9d6a-0d6c2b1f4e21',
      restaurantId: snapshot.restaurantId,
      platform: 'PLATFORM_B',
      providerRestaurantId: 'b-1',
      isActive: true,
      settings: { chainCode: 'c', username: 'u' },
      secrets: { password: 'v1:k1:iv:tag:ct' },
      version: 1,
      createdAt: snapshot.createdAt,
      updatedAt: snapshot.createdAt,
      occurredAt: snapshot.createdAt,
    };
    expect(valid(RoutingKey.IntegrationUpserted, record)).toEqual([]);
    expect(valid(RoutingKey.IntegrationDeleted, { integrationId: record.integrationId, restaurantId: record.restaurantId, platform: 'PLATFORM_B', providerRestaurantId: 'b-1', version: 2, occurredAt: record.occurredAt })).toEqual([]);
  });
});
