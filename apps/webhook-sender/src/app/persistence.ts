import { MESSAGING_ENTITIES } from '@courier/messaging';
import { PersistenceSettings } from '@courier/persistence';
import { WebhookAccountEntity } from '../accounts/webhook-account.entity';
import { WebhookAttemptEntity } from '../deliveries/webhook-attempt.entity';
import { WebhookDeliveryEntity, WebhookDeliveryQueueEntity } from '../deliveries/webhook-delivery.entity';
import { InitMessaging1763740000000 } from '../migrations/1763740000000-InitMessaging';
import { CreateWebhookTables1763760000000 } from '../migrations/1763760000000-CreateWebhookTables';
import { AddDeliveryCorrelation1764000000000 } from '../migrations/1764000000000-AddDeliveryCorrelation';
import { AddDeliveryRetentionIndex1764100000000 } from '../migrations/1764100000000-AddDeliveryRetentionIndex';
import { AddOutboxLease1764200000000 } from '../migrations/1764200000000-AddOutboxLease';
import { CreateRateLimitCounters1764300800000 } from '../migrations/1764300800000-CreateRateLimitCounters';
import { AddPreviousSigningSecret1764401000000 } from '../migrations/1764401000000-AddPreviousSigningSecret';
import { AddDeliveryTraceparent1764401300000 } from '../migrations/1764401300000-AddDeliveryTraceparent';
import { AddRestaurantWebhooks1764401900000 } from '../migrations/1764401900000-AddRestaurantWebhooks';

/** webhook-sender's tables live in its own schema, with its own migrations table. */
export const PERSISTENCE: PersistenceSettings = {
  schema: 'webhooks',
  entities: [...MESSAGING_ENTITIES, WebhookAccountEntity, WebhookDeliveryEntity, WebhookDeliveryQueueEntity, WebhookAttemptEntity],
  migrations: [
    InitMessaging1763740000000,
    CreateWebhookTables1763760000000,
    AddDeliveryCorrelation1764000000000,
    AddDeliveryRetentionIndex1764100000000,
    AddOutboxLease1764200000000,
    CreateRateLimitCounters1764300800000,
    AddPreviousSigningSecret1764401000000,
    AddDeliveryTraceparent1764401300000,
    AddRestaurantWebhooks1764401900000,
  ],
};
