import { RoutingKey } from '../routing-keys';
import { AccountCreatedEvent } from './account-created/account-created.event';
import { AccountDisabledEvent } from './account-disabled/account-disabled.event';
import { AccountKeysRotatedEvent } from './account-keys-rotated/account-keys-rotated.event';
import { AccountUpdatedEvent } from './account-updated/account-updated.event';
import { IntegrationDeletedEvent } from './integration-deleted/integration-deleted.event';
import { IntegrationUpsertedEvent } from './integration-upserted/integration-upserted.event';
import { WebhookSettingsChangedEvent } from './webhook-settings-changed/webhook-settings-changed.event';

/** Payload class of each account and integration routing key (for publishers and validating consumers). */
export const ACCOUNT_EVENT_PAYLOADS = {
  [RoutingKey.AccountCreated]: AccountCreatedEvent,
  [RoutingKey.AccountUpdated]: AccountUpdatedEvent,
  [RoutingKey.AccountDisabled]: AccountDisabledEvent,
  [RoutingKey.AccountKeysRotated]: AccountKeysRotatedEvent,
  [RoutingKey.WebhookSettingsChanged]: WebhookSettingsChangedEvent,
  [RoutingKey.IntegrationUpserted]: IntegrationUpsertedEvent,
  [RoutingKey.IntegrationDeleted]: IntegrationDeletedEvent,
} as const;

/** Routing keys whose payload is a whole AccountSnapshot. */
export const ACCOUNT_SNAPSHOT_KEYS = [
  RoutingKey.AccountCreated,
  RoutingKey.AccountUpdated,
  RoutingKey.AccountDisabled,
  RoutingKey.AccountKeysRotated,
  RoutingKey.WebhookSettingsChanged,
] as const;

export type AccountSnapshotKey = (typeof ACCOUNT_SNAPSHOT_KEYS)[number];
