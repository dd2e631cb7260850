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
  changes: CatalogDriftChange[];
  /** When the import found it (ISO 8601). */
  detectedAt: string;
}
