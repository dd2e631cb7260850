import { accountSnapshot } from './account-snapshot';
import { RestaurantEntity } from './restaurant.entity';
import { IntegrationEntity } from '../integrations/integration.entity';

describe('accountSnapshot', () => {
  const at = new Date('2025-05-06T07:08:09.010Z');
  const restaurant: RestaurantEntity = {
    id: 'rest_abcdefghijklmnopqrstuvwx',
    name: 'Demo',
    status: 'disabled',
    apiKeyHash: 'a'.repeat(64),
    apiSecretHash: 'b'.repeat(64),
    webhookStatusUrl: 'https://x.example/s',
    webhookCancelUrl: null,
    webhookSigningSecret: 'v1:k1:iv:tag:ct',
    webhookPreviousSigningSecret: 'v1:k1:iv:tag:old',
    webhookPreviousSigningSecretValidUntil: new Date('2025-05-07T07:08:09.010Z'),
    version: 7,
    createdAt: at,
    updatedAt: at,
  };

  it('carries the whole account, the signing secrets (current and previous) only as ciphertext', () => {
    const thirdParty = { id: 'i-1', providerRestaurantId: 'pos-1', isActive: false } as IntegrationEntity;
    expect(accountSnapshot(restaurant, thirdParty, at)).toEqual({
      restaurantId: restaurant.id,
      name: 'Demo',
      status: 'disabled',
      apiKeyHash: 'a'.repeat(64),
      apiSecretHash: 'b'.repeat(64),
      thirdParty: { integrationId: 'i-1', providerRestaurantId: 'pos-1', isActive: false },
      webhooks: {
        statusUrl: 'https://x.example/s',
        cancelUrl: null,
        signingSecretCiphertext: 'v1:k1:iv:tag:ct',
        previousSigningSecretCiphertext: 'v1:k1:iv:tag:old',
        previousSigningSecretValidUntil: '2025-05-07T07:08:09.010Z',
      },
      version: 7,
      createdAt: at.toISOString(),
      occurredAt: at.toISOString(),
    });
    expect(accountSnapshot(restaurant, null, at).thirdParty).toBeNull();
  });
});
