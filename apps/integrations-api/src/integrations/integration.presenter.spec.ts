import { randomBytes } from 'node:crypto';
import { SecretBox } from '@courier/crypto';
import { PlatformRegistry } from '@courier/platforms';
import { IntegrationEntity } from './integration.entity';
import { integrationDeletedEvent, integrationUpsertedEvent } from './integration-events';
import { IntegrationPresenter } from './integration.presenter';
import { INITIAL_VERIFICATION } from '../integration-verification/integration-verification.service';

describe('IntegrationPresenter', () => {
  const box = new SecretBox([{ id: 'k1', key: randomBytes(32) }]);
  const presenter = new IntegrationPresenter(PlatformRegistry.fromEnv({ PLATFORM_C_CODE: 'TRENDYOL' }), box);
  const now = new Date('2025-01-02T03:04:05.006Z');
  const integration = (overrides: Partial<IntegrationEntity> = {}): IntegrationEntity => ({
    id: '7c0d7c1e-8f0a-4a0e-9d6a-0d6c2b1f4e21',
    restaurantId: 'rest_abcdefghijklmnopqrstuvwx',
    platform: 'PLATFORM_C',
    providerRestaurantId: 'c-1',
    providerRestaurantKey: 'c-1',
    isActive: true,
    settings: { supplierId: 'sup-1', storeId: 'store-1' },
    secrets: { apiKey: box.encrypt('api-key-value-1234'), secretKey: box.encrypt('secret-value-5678') },
    version: 3,
    displacedAt: null,
    verifiedAt: null,
    verifiedBy: null,
    ...INITIAL_VERIFICATION('PLATFORM_B', now),
    createdAt: now,
    updatedAt: now,
    ...overrides,
  });

  it('shows clear fields, masked secrets in field order, and the wire code', () => {
    const record = presenter.toRecord(integration());
    expect(record).toEqual({
      id: '7c0d7c1e-8f0a-4a0e-9d6a-0d6c2b1f4e21',
      platform: 'TRENDYOL',
      providerRestaurantId: 'c-1',
      isActive: true,
      supplierId: 'sup-1',
      apiKey: '****1234',
      secretKey: '****5678',
      storeId: 'store-1',
      createdAt: '2025-01-02T03:04:05.006Z',
      updatedAt: '2025-01-02T03:04:05.006Z',
      verification: { state: 'unverified', verifiedAt: null, detail: null, fingerprint: null },
    });
    expect(Object.keys(record)).toEqual(['id', 'platform', 'providerRestaurantId', 'isActive', 'supplierId', 'apiKey', 'secretKey', 'storeId', 'createdAt', 'updatedAt', 'verification']);
  });

  it('shows a bare mask for a secret it cannot open, and logs no secret', () => {
    const foreign = new SecretBox([{ id: 'k9', key: randomBytes(32) }]).encrypt('unreadable-secret');
    expect(presenter.toRecord(integration({ secrets: { apiKey: foreign, secretKey: 'garbage' } }))).toMatchObject({ apiKey: '****', secretKey: '****' });
  });

  it('still shows a record of a platform no longer registered', () => {
    expect(presenter.toRecord(integration({ platform: 'PLATFORM_OLD', settings: { region: 'x' }, secrets: { token: box.encrypt('token-value-0000') } }))).toMatchObject({
      platform: 'PLATFORM_OLD',
      region: 'x',
      token: '****0000',
    });
  });
});

describe('integration events', () => {
  const now = new Date('2025-01-02T03:04:05.006Z');
  const entity: IntegrationEntity = {
    id: 'i-1',
    restaurantId: 'rest_abcdefghijklmnopqrstuvwx',
    platform: 'PLATFORM_B',
    providerRestaurantId: 'b-1',
    providerRestaurantKey: 'b-1',
    isActive: false,
    settings: { chainCode: 'c' },
    secrets: { password: 'v1:k1:a:b:c' },
    version: 4,
    displacedAt: null,
    verifiedAt: null,
    verifiedBy: null,
    ...INITIAL_VERIFICATION('PLATFORM_B', now),
    createdAt: now,
    updatedAt: now,
  };

  it('upserted carries the record with ciphertexts; deleted carries the next version', () => {
    expect(integrationUpsertedEvent(entity, now)).toEqual({
      integrationId: 'i-1',
      restaurantId: entity.restaurantId,
      platform: 'PLATFORM_B',
      providerRestaurantId: 'b-1',
      isActive: false,
      displaced: false,
      verification: 'unverified',
      verifiedAt: null,
      settings: { chainCode: 'c' },
      secrets: { password: 'v1:k1:a:b:c' },
      version: 4,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
      occurredAt: now.toISOString(),
    });
    expect(integrationUpsertedEvent({ ...entity, displacedAt: now }, now)).toMatchObject({ isActive: false, displaced: true });
    expect(integrationUpsertedEvent({ ...entity, verificationState: 'verified', verificationVerifiedAt: now }, now)).toMatchObject({ verification: 'verified', verifiedAt: now.toISOString() });
    expect(integrationDeletedEvent(entity, now)).toEqual({ integrationId: 'i-1', restaurantId: entity.restaurantId, platform: 'PLATFORM_B', providerRestaurantId: 'b-1', version: 5, occurredAt: now.toISOString() });
  });
});
