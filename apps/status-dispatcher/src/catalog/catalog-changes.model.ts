import type { MenuProduct } from '@courier/platforms';

/** A link of the restaurant's code to one integration's platform product, with that product as last imported (null: not on the menu now). */
export interface CodeLinkRow {
  integrationId: string;
  platformProductId: string;
  product: MenuProduct | null;
}

/** What one integration answered to a change at once (stored with the change). */
export interface ChangeResult {
  integrationId: string;
  platform: string;
  platformProductId: string | null;
  state: 'queued' | 'refused' | 'unsupported' | 'not_linked';
  code?: string;
  message?: string;
  commandId?: string;
}
