import { MESSAGING_ENTITIES } from '@courier/messaging';
import { PersistenceSettings } from '@courier/persistence';
import { InitMessaging1763740000000 } from '../migrations/1763740000000-InitMessaging';
import { CreateIntakeTables1763760000000 } from '../migrations/1763760000000-CreateIntakeTables';
import { AddOutboxLease1764200000000 } from '../migrations/1764200000000-AddOutboxLease';
import { BackfillOrderOpened1764300900000 } from '../migrations/1764300900000-BackfillOrderOpened';
import { OrderIdIdentityKey1764401110000 } from '../migrations/1764401110000-OrderIdIdentityKey';

/**
 * intake-api's tables live in its own schema, with its own migrations table. Its own tables are
 * read and written with SQL (no entities): the hot path needs single-statement upserts and CTEs.
 */
export const PERSISTENCE: PersistenceSettings = {
  schema: 'intake',
  entities: [...MESSAGING_ENTITIES],
  migrations: [InitMessaging1763740000000, CreateIntakeTables1763760000000, AddOutboxLease1764200000000, BackfillOrderOpened1764300900000, OrderIdIdentityKey1764401110000],
};
