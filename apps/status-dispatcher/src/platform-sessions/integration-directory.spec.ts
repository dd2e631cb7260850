import { randomBytes } from 'node:crypto';
import { Registry } from 'prom-client';
import { SecretBox, secretBinding, SecretDecryptionError } from '@courier/crypto';
import type { AccountDirectoryRepository } from '../account-directory/account-directory.repository';
import { IntegrationDirectory } from './integration-directory';

describe('IntegrationDirectory.credentials', () => {
  const box = new SecretBox([{ id: 'k1', key: randomBytes(32) }]);
  const directory = new IntegrationDirectory({} as AccountDirectoryRepository, box, new Registry());
  const ownId = '1b7c9a6e-0000-4000-8000-000000000001';
  const otherId = '1b7c9a6e-0000-4000-8000-000000000002';
  const sealed = (integrationId: string, field: string, value: string) => box.encrypt(value, secretBinding.integrationSecret(integrationId, field));
  const integration = (integrationId: string, secrets: Record<string, string>) => ({ integrationId, providerRestaurantId: 'c-1', settings: { supplierId: 's-1' }, secrets });

  it('opens the secrets bound to this integration and field, and legacy unbound ones', () => {
    const credentials = directory.credentials(integration(ownId, { apiKey: sealed(ownId, 'apiKey', 'key-1'), secretKey: box.encrypt('legacy-secret') }));
    expect(credentials.secrets).toEqual({ apiKey: 'key-1', secretKey: 'legacy-secret' });
  });

  it('refuses (SecretDecryptionError) a ciphertext copied from another integration or another field', () => {
    expect(() => directory.credentials(integration(ownId, { apiKey: sealed(otherId, 'apiKey', 'key-2') }))).toThrow(SecretDecryptionError);
    expect(() => directory.credentials(integration(ownId, { apiKey: sealed(ownId, 'secretKey', 'secret-1') }))).toThrow(SecretDecryptionError);
  });
});
