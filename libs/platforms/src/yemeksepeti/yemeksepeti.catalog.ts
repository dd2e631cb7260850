import type { PlatformCallOutcome } from '../common/platform-adapter';
import type { PlatformCatalog, PricePlan } from '../common/platform-catalog';

/**
 * PLATFORM_B catalog (Delivery Hero): no menu read and no price call (yemeksepeti.assumptions.ts,
 * PLATFORM_B_MENU_READ). Sold-out products go through the availability's item calls.
 */
export class PlatformBCatalog implements PlatformCatalog {
  readonly menuReadUnsupported =
    'Delivery Hero has no menu read: it asks the POS for the menu (GET /menuimport/{remoteId}) and the POS pushes its whole catalog (PUT /v2/chains/{chainCode}/catalog); Yemeksepeti\'s catalog API is not open yet in Turkey.';

  planPrice(): PricePlan {
    return {
      kind: 'refused',
      code: 'PRICE_UNSUPPORTED',
      message: 'Delivery Hero takes prices only in a whole-catalog push from the POS (PUT /v2/chains/{chainCode}/catalog), which the suite does not own: change the price in the POS.',
    };
  }

  /** Never called after planPrice's refusal; answers skipped should it be. */
  async setPrice(): Promise<PlatformCallOutcome> {
    return { kind: 'skipped', reason: 'Delivery Hero has no price call: prices come with the POS\'s catalog push' };
  }
}
