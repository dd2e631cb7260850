import { answerOf, classifyResponse, networkAnswer } from '../../common/outcomes';
import type { IntegrationCredentials } from '../../common/platform-adapter';
import type { MenuProduct, MenuReadOutcome, PlatformCatalog, PricePlan, PriceCallOutcome } from '../../common/platform-catalog';
import { PlatformNetworkError, platformRequest } from '../../common/platform-http';

/** A product of the example platform's menu, as its API sends it. */
export interface ExampleMenuProduct {
  id: string;
  name: string;
  price: number;
  category: string;
  active: boolean;
  /** The restaurant's own code, where the store entered one. */
  plu?: string;
}

function menuProductOf(product: ExampleMenuProduct): MenuProduct {
  return {
    platformProductId: product.id,
    name: product.name,
    price: product.price,
    category: product.category,
    status: product.active ? 'ACTIVE' : 'INACTIVE',
    externalCode: product.plu ?? null,
    options: [],
    platformData: {},
  };
}

const isMenuProduct = (value: unknown): value is ExampleMenuProduct => {
  const product = value as ExampleMenuProduct;
  return typeof product?.id === 'string' && typeof product.name === 'string' && typeof product.price === 'number' && typeof product.active === 'boolean';
};

/** The example platform's menu: one read of the store's products (GET /stores/{storeId}/menu); prices are not changed through it. */
export class ExamplePlatformCatalog implements PlatformCatalog {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
  ) {}

  async readMenu(credentials: IntegrationCredentials): Promise<MenuReadOutcome> {
    try {
      const response = await platformRequest({
        method: 'GET',
        url: `${this.baseUrl}/stores/${encodeURIComponent(credentials.providerRestaurantId)}/menu`,
        headers: { 'x-api-key': credentials.secrets.apiKey ?? '' },
        timeoutMs: this.timeoutMs,
      });
      const outcome = classifyResponse(response);
      if (outcome.kind === 'retry') return { kind: 'retry', answer: outcome.answer, retryAfterMs: outcome.retryAfterMs };
      if (outcome.kind !== 'done') return { kind: 'failed', answer: answerOf(response), reason: outcome.kind === 'failed' ? outcome.reason : 'no menu' };
      const products = (response.body as { products?: unknown } | null)?.products;
      if (!Array.isArray(products) || !products.every(isMenuProduct)) return { kind: 'failed', answer: answerOf(response), reason: 'the menu is not in the example platform\'s shape' };
      return { kind: 'ok', products: products.map(menuProductOf), answer: answerOf(response) };
    } catch (error) {
      if (error instanceof PlatformNetworkError) return { kind: 'retry', answer: networkAnswer(error) };
      throw error;
    }
  }

  planPrice(): PricePlan {
    return { kind: 'refused', code: 'PRICE_UNSUPPORTED', message: 'The example platform takes no price changes.' };
  }

  async setPrice(): Promise<PriceCallOutcome> {
    return { kind: 'skipped', reason: 'The example platform takes no price changes.' };
  }
}
