import type { CatalogDriftKind } from '@courier/contracts';
import type { MenuOptionGroup, MenuProductStatus } from '@courier/platforms';
import type { StoredAnswer } from '../status-updates/status-update.model';

export type ImportState = 'queued' | 'running' | 'done' | 'failed';
export type ImportRequestedBy = 'restaurant' | 'schedule';
export type LinkedBy = 'external_code' | 'manual' | 'confirmed';
export type CodeSource = 'external_code' | 'manual' | 'order';

/** The problem codes of the catalog's answers (beyond the shared ones of @courier/contracts). */
export const CatalogProblem = {
  MenuReadUnsupported: 'MENU_READ_UNSUPPORTED',
  ImportNotFound: 'IMPORT_NOT_FOUND',
  ProductNotFound: 'PRODUCT_NOT_FOUND',
  /** PUT .../links met a link of the same code made at the same moment twice (an import's). */
  LinkConflict: 'CATALOG_LINK_CONFLICT',
} as const;

/** What an import counted when it ended done. */
export interface ImportCounts {
  /** Products on the menu read. */
  products: number;
  /** Products the menu no longer lists, marked removed. */
  removed: number;
  autoLinked: number;
  drift: number;
}

/** A row of `catalog_imports`. */
export interface ImportRow {
  id: string;
  integrationId: string;
  restaurantId: string;
  platform: string;
  requestedBy: ImportRequestedBy;
  state: ImportState;
  requestedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  attempts: number;
  counts: ImportCounts | null;
  lastAnswer: StoredAnswer | null;
  lastError: string | null;
  /** The id of the drift event this import publishes, chosen when it was queued: a retried transaction keeps it. */
  driftEventId: string;
  /** The call slot booked in the platform's budget that the import waits for (null: none). */
  budgetSlotAt: Date | null;
}

/** A product of an integration's menu as last imported (`catalog_products`). */
export interface StoredProductRow {
  integrationId: string;
  platformProductId: string;
  platform: string;
  name: string;
  nameKey: string;
  price: number | null;
  category: string | null;
  status: MenuProductStatus;
  externalCode: string | null;
  options: MenuOptionGroup[];
  removedAt: Date | null;
}

/** A row of `catalog_links`. */
export interface LinkRow {
  integrationId: string;
  platformProductId: string;
  productCode: string;
  linkedBy: LinkedBy;
  linkedAt: Date;
}

/** A row of `catalog_codes`. */
export interface CodeRow {
  productCode: string;
  name: string | null;
  nameKey: string | null;
  source: CodeSource;
  createdAt: Date;
}

/** A link with what the platform's menu says of its product (null fields: the product is only known from orders). */
export interface LinkedProductRow extends LinkRow {
  name: string | null;
  nameKey: string | null;
  price: number | null;
  status: MenuProductStatus | null;
  removedAt: Date | null;
}

/** A platform product linked to no code: on the menu, seen in orders, or both. */
export interface UnlinkedProductRow {
  integrationId: string;
  platform: string;
  platformProductId: string;
  name: string | null;
  price: number | null;
  category: string | null;
  status: MenuProductStatus | null;
  onMenu: boolean;
  orders: number;
  lastOrderAt: Date | null;
}

/** A row of `catalog_drift`. */
export interface DriftRow {
  id: string;
  importId: string;
  integrationId: string;
  platform: string;
  platformProductId: string;
  productCode: string | null;
  kind: CatalogDriftKind;
  before: string | number | null;
  after: string | number | null;
  detectedAt: Date;
}
