import { MESSAGING_ENTITIES } from '@courier/messaging';
import { PersistenceSettings } from '@courier/persistence';
import { InitMessaging1763740000000 } from '../migrations/1763740000000-InitMessaging';
import { CreateOrders1763800000000 } from '../migrations/1763800000000-CreateOrders';
import { CreateAccountDirectory1763800001000 } from '../migrations/1763800001000-CreateAccountDirectory';
import { CreatePlatformDispatch1763900000000 } from '../migrations/1763900000000-CreatePlatformDispatch';
import { AddStatusUpdateCorrelation1764000000000 } from '../migrations/1764000000000-AddStatusUpdateCorrelation';
import { AddOutboxLease1764200000000 } from '../migrations/1764200000000-AddOutboxLease';
import { AddPlatformBPluginRecords1764300200000 } from '../migrations/1764300200000-AddPlatformBPluginRecords';
import { CreatePlatformSessionsAndCallBudgets1764300500000 } from '../migrations/1764300500000-CreatePlatformSessionsAndCallBudgets';
import { AddIntegrationDisplaced1764300610000 } from '../migrations/1764300610000-AddIntegrationDisplaced';
import { CreateRateLimitCounters1764300800000 } from '../migrations/1764300800000-CreateRateLimitCounters';
import { ScopePlatformOrdersToStore1764400100000 } from '../migrations/1764400100000-ScopePlatformOrdersToStore';
import { GeneralisePlatformAcceptBy1764400700000 } from '../migrations/1764400700000-GeneralisePlatformAcceptBy';
import { AddOpenPlatformOrdersIndex1764400600000 } from '../migrations/1764400600000-AddOpenPlatformOrdersIndex';
import { AddIntegrationVerificationAndWithheldOrders1764400210000 } from '../migrations/1764400210000-AddIntegrationVerificationAndWithheldOrders';
import { CreateAvailability1764401800000 } from '../migrations/1764401800000-CreateAvailability';
import { CreateCatalog1764402000000 } from '../migrations/1764402000000-CreateCatalog';
import { CreateCatalogChanges1764402100000 } from '../migrations/1764402100000-CreateCatalogChanges';

/** status-dispatcher's tables live in its own schema, with its own migrations table. */
export const PERSISTENCE: PersistenceSettings = {
  schema: 'dispatcher',
  // Orders, status updates and poll cursors are read and written with plain SQL: no entities of their own.
  entities: [...MESSAGING_ENTITIES],
  migrations: [InitMessaging1763740000000, CreateOrders1763800000000, CreateAccountDirectory1763800001000, CreatePlatformDispatch1763900000000, AddStatusUpdateCorrelation1764000000000, AddOutboxLease1764200000000, AddPlatformBPluginRecords1764300200000, CreatePlatformSessionsAndCallBudgets1764300500000, AddIntegrationDisplaced1764300610000, CreateRateLimitCounters1764300800000, ScopePlatformOrdersToStore1764400100000, AddIntegrationVerificationAndWithheldOrders1764400210000, AddOpenPlatformOrdersIndex1764400600000, GeneralisePlatformAcceptBy1764400700000, CreateAvailability1764401800000, CreateCatalog1764402000000, CreateCatalogChanges1764402100000],
};
