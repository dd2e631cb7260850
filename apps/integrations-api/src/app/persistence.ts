import { MESSAGING_ENTITIES } from '@courier/messaging';
import { PersistenceSettings } from '@courier/persistence';
import { RestaurantEntity } from '../accounts/restaurant.entity';
import { IntegrationEntity } from '../integrations/integration.entity';
import { InitMessaging1763740000000 } from '../migrations/1763740000000-InitMessaging';
import { CreateAccountsAndIntegrations1763750000000 } from '../migrations/1763750000000-CreateAccountsAndIntegrations';
import { AddOutboxLease1764200000000 } from '../migrations/1764200000000-AddOutboxLease';
import { OnePlatformRestaurantOneIntegration1764300600000 } from '../migrations/1764300600000-OnePlatformRestaurantOneIntegration';
import { CreateRateLimitCounters1764300800000 } from '../migrations/1764300800000-CreateRateLimitCounters';
import { AddIntegrationVerification1764400200000 } from '../migrations/1764400200000-AddIntegrationVerification';
import { AddPreviousWebhookSigningSecret1764401000000 } from '../migrations/1764401000000-AddPreviousWebhookSigningSecret';
import { ProviderRestaurantIdentityKey1764401100000 } from '../migrations/1764401100000-ProviderRestaurantIdentityKey';

/** integrations-api's tables live in its own schema, with its own migrations table. */
export const PERSISTENCE: PersistenceSettings = {
  schema: 'integrations',
  entities: [...MESSAGING_ENTITIES, RestaurantEntity, IntegrationEntity],
  migrations: [
    InitMessaging1763740000000,
    CreateAccountsAndIntegrations1763750000000,
    AddOutboxLease1764200000000,
    OnePlatformRestaurantOneIntegration1764300600000,
    CreateRateLimitCounters1764300800000,
    AddIntegrationVerification1764400200000,
    AddPreviousWebhookSigningSecret1764401000000,
    ProviderRestaurantIdentityKey1764401100000,
  ],
};
