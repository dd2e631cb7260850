import type { RequestProblem } from '../availability/availability.decisions';

/**
 * What a change by the restaurant's product code decides before anything is queued (pure): which
 * integrations get a command and what the others are answered, and whether a price or a code is
 * acceptable at all. CatalogChangesService gathers the facts and applies the decisions.
 */

/** Highest price accepted from the restaurant (the menu's currency); platforms may refuse less (their planPrice). */
export const MAX_PRICE = 1_000_000;
/** Longest productCode accepted in a path. */
export const MAX_PRODUCT_CODE_LENGTH = 128;

export interface ChangeIntegration {
  integrationId: string;
  platform: string;
  isActive: boolean;
  verified: boolean;
}

export interface CodeLink {
  integrationId: string;
  platformProductId: string;
}

/** Per integration: a command to plan for its linked product, or an answer given at once (nothing queued). */
export type ChangeTarget<I extends ChangeIntegration = ChangeIntegration> =
  | { kind: 'send'; integration: I; platformProductId: string }
  | { kind: 'answer'; integration: I; platformProductId: string | null; state: 'not_linked' | 'refused'; code: string; message: string };

/**
 * Every active integration of the restaurant, in the order given: linked and verified ones are sent
 * to; one with no product linked to the code is `not_linked` (told apart from a platform's refusal);
 * a linked one not verified by its platform yet is `refused` (nothing may be sent with its credentials).
 */
export function changeTargets<I extends ChangeIntegration>(integrations: readonly I[], links: readonly CodeLink[]): Array<ChangeTarget<I>> {
  const linked = new Map(links.map((link) => [link.integrationId, link.platformProductId]));
  return integrations
    .filter((integration) => integration.isActive)
    .map((integration): ChangeTarget<I> => {
      const platformProductId = linked.get(integration.integrationId);
      if (platformProductId === undefined) {
        return { kind: 'answer', integration, platformProductId: null, state: 'not_linked', code: 'PRODUCT_NOT_LINKED', message: 'No product of this integration is linked to the code: nothing is sent there.' };
      }
      if (!integration.verified) {
        return { kind: 'answer', integration, platformProductId, state: 'refused', code: 'INTEGRATION_NOT_VERIFIED', message: 'The integration is not verified by its platform yet: nothing is sent for it.' };
      }
      return { kind: 'send', integration, platformProductId };
    });
}

/** A price's problem beyond its type: positive, at most MAX_PRICE, at most 2 decimals (1e-7 is refused, 0.29 is not). */
export function priceProblem(price: number): RequestProblem | undefined {
  if (!Number.isFinite(price) || price <= 0) return { code: 'VALIDATION_ERROR', field: 'price', message: 'must be a number greater than 0' };
  if (price > MAX_PRICE) return { code: 'VALIDATION_ERROR', field: 'price', message: `must be at most ${MAX_PRICE}` };
  // Cents as a float are off by rounding noise only when the price has at most 2 decimals; a price under a cent (5e-324) is within that noise of 0 cents.
  if (Math.round(price * 100) < 1 || Math.abs(Math.round(price * 100) - price * 100) > 1e-6) return { code: 'VALIDATION_ERROR', field: 'price', message: 'must have at most 2 decimals' };
  return undefined;
}

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/** A productCode from a path: 1-128 characters, no control characters, not blank. */
export function productCodeProblem(productCode: string): RequestProblem | undefined {
  if (productCode.trim().length === 0 || productCode.length > MAX_PRODUCT_CODE_LENGTH || CONTROL_CHARACTERS.test(productCode)) {
    return { code: 'VALIDATION_ERROR', field: 'productCode', message: `must be 1-${MAX_PRODUCT_CODE_LENGTH} characters, not blank, without control characters` };
  }
  return undefined;
}
