/** At most this many changes in one event (and its webhook): a replaced menu must not make a webhook receivers refuse for its size. */
export const CATALOG_DRIFT_EVENT_MAX_CHANGES = 200;

/** What changed on the platform's side of one product since the last import. */
export type CatalogDriftKind = 'price' | 'name' | 'status' | 'added' | 'removed' | 'linked_removed';

export interface CatalogDriftChange {
  kind: CatalogDriftKind;
  platformProductId: string;
  /** The restaurant's code the product is linked to, null when it is linked to none. */
  productCode: string | null;
  /** The value before and after (price as a number, name as text, status `ACTIVE` / `INACTIVE`); null for added / removed. */
  before: string | number | null;
  after: string | number | null;
}

/**
 * `catalog.drift_detected`: a re-import of one integration's menu found it changed on the platform's
 * side (not by the suite's own price or sold-out calls). Published by status-dispatcher once per
 * import that found a difference; webhook-sender delivers it to the restaurant's status URL,
 * signed like the order webhooks.
 */
export interface CatalogDriftDetectedEvent {
  /** Unique per import that found drift: the webhook's id is derived from it (redeliveries keep it). */
  driftEventId: string;
  restaurantId: string;
  integrationId: string;
  /** Neutral platform code. */
  provider: string;
  providerRestaurantId: string;
  /** The import that found it. */
  importId: string;
  /** The differences, at most CATALOG_DRIFT_EVENT_MAX_CHANGES of them (GET /api/v1/my/catalog/drift lists all). */
  changes: CatalogDriftChange[];
  /** How many more the import found than `changes` lists (0 normally: a whole menu replaced lists the first ones only). */
  omittedChanges: number;
  /** When the import found it (ISO 8601). */
  detectedAt: string;
}
