import type { IntegrationCredentials, PlatformAnswer, PlatformCallOutcome } from '../common/platform-adapter';
import type {
  MenuOptionGroup,
  MenuProduct,
  MenuReadOutcome,
  PlatformCatalog,
  PriceCallOutcome,
  PricePlan,
  ProductPriceChange,
} from '../common/platform-catalog';
import { answerOf, classifyResponse, networkAnswer, outcomeOfError } from '../common/outcomes';
import { PlatformNetworkError, PlatformResponse } from '../common/platform-http';
import { isRecord } from '../common/payload-reader';
import type { PlatformCCalls } from './trendyol-go.availability';
import {
  PLATFORM_C_BATCH_KEPT_MS,
  PLATFORM_C_EXTERNAL_CODE_FIELDS,
  PLATFORM_C_MAX_PRICE,
  PLATFORM_C_PRICE_CHECK_AFTER_MS,
  PLATFORM_C_RATE_LIMIT_WINDOW_MS,
  PLATFORM_C_REPEATED_PRICE,
  PLATFORM_C_REPEATED_REQUEST_WINDOW_MS,
  platformCBatchPath,
  platformCMenuPath,
  platformCPricePath,
} from './trendyol-go.assumptions';

/** What a PLATFORM_C menu product keeps for the price call (MenuProduct.platformData). */
export interface PlatformCProductData {
  /** The product id as the menu gives it (a number on the platform). */
  productId: number | string;
  sectionId: number | string | null;
  originalPrice: number | null;
}

/**
 * PLATFORM_C's catalog (trendyol-go.assumptions.ts, "Catalog"): the store's menu in one read
 * (products, sections, modifier groups), and prices through the supplier's asynchronous price
 * request: `setPrice` answers `pending` with the batch request id, `checkPrice` reads the batch
 * until our product's item succeeded or failed.
 */
export class PlatformCCatalog implements PlatformCatalog {
  constructor(private readonly calls: PlatformCCalls) {}

  async readMenu(credentials: IntegrationCredentials): Promise<MenuReadOutcome> {
    const problem = this.calls.credentialProblem(credentials);
    if (problem) return { kind: 'failed', answer: { httpStatus: null, body: null, error: problem }, reason: problem };
    try {
      const response = await this.calls.call(credentials, 'GET', platformCMenuPath(credentials.settings.supplierId, credentials.settings.storeId));
      const outcome = outcomeOf(response);
      if (outcome.kind === 'retry') return { kind: 'retry', answer: outcome.answer, retryAfterMs: outcome.retryAfterMs };
      if (outcome.kind !== 'done') return { kind: 'failed', answer: answerOf(response), reason: outcome.kind === 'failed' ? outcome.reason : 'no menu' };
      const menu = parsePlatformCMenu(response.body);
      if (!menu.ok) return { kind: 'failed', answer: answerOf(response), reason: `PLATFORM_C answered a menu this suite cannot read: ${menu.reason}` };
      return { kind: 'ok', products: menu.products, answer: answerOf(response) };
    } catch (error) {
      return readOutcomeOfError(error);
    }
  }

  /** The call needs only the platform's product id, so a product not imported yet is priced all the same. */
  planPrice(change: ProductPriceChange, _product: MenuProduct | null): PricePlan {
    const { price } = change;
    if (!Number.isFinite(price) || price <= 0 || price > PLATFORM_C_MAX_PRICE)
      return { kind: 'refused', code: 'PRICE_OUT_OF_RANGE', message: `PLATFORM_C takes a price above 0 and at most ${PLATFORM_C_MAX_PRICE} TRY.` };
    if (Math.abs(Math.round(price * 100) - price * 100) > 1e-6)
      return { kind: 'refused', code: 'PRICE_PRECISION', message: 'PLATFORM_C takes a price with at most 2 decimals (kuruş).' };
    // The platform's ids are numbers: sent as one where the stored id is one.
    const productId = /^\d{1,15}$/.test(change.platformProductId) ? Number(change.platformProductId) : change.platformProductId;
    return { kind: 'send', params: { productId, sellingPrice: Math.round(price * 100) / 100 } };
  }

  async setPrice(
    credentials: IntegrationCredentials,
    change: ProductPriceChange,
    plan: Extract<PricePlan, { kind: 'send' }>,
  ): Promise<PriceCallOutcome> {
    const problem = this.calls.credentialProblem(credentials);
    if (problem) return { kind: 'failed', answer: { httpStatus: null, body: null, error: problem }, reason: problem };
    const storeId = credentials.settings.storeId;
    // Without restaurantId the platform changes the price in every restaurant of the supplier.
    const restaurantId = /^\d{1,15}$/.test(storeId) ? Number(storeId) : storeId;
    const item = { restaurantId, productId: plan.params.productId, sellingPrice: plan.params.sellingPrice };
    try {
      const response = await this.calls.call(credentials, 'POST', platformCPricePath(credentials.settings.supplierId), { items: [item] });
      if (response.status >= 400 && response.status < 500 && response.status !== 429 && PLATFORM_C_REPEATED_PRICE.test(platformMessage(response.body)))
        return this.confirmRepeated(credentials, String(change.platformProductId), plan.params.sellingPrice, answerOf(response));
      const outcome = outcomeOf(response);
      if (outcome.kind !== 'done') return outcome;
      const batchRequestId = isRecord(response.body) ? response.body.batchRequestId : undefined;
      if (typeof batchRequestId !== 'string' || batchRequestId.trim() === '')
        return { kind: 'failed', answer: answerOf(response), reason: 'PLATFORM_C took the price request without a batchRequestId: its result cannot be checked' };
      return {
        kind: 'pending',
        answer: answerOf(response),
        // The request time bounds the wait: an expired batch id may read as still processing.
        followUp: { batchRequestId, productId: String(change.platformProductId), requestedAt: Date.now() },
        checkAfterMs: PLATFORM_C_PRICE_CHECK_AFTER_MS,
      };
    } catch (error) {
      if (error instanceof PlatformNetworkError) return { kind: 'retry', answer: networkAnswer(error) };
      return outcomeOfError(error);
    }
  }

  /**
   * A repeated-request refusal is about the body, not the price (the product may have had another price
   * since): done only when the menu already shows the price sent; else sent again once the window is over.
   */
  private async confirmRepeated(credentials: IntegrationCredentials, productId: string, sellingPrice: unknown, refusal: PlatformAnswer): Promise<PriceCallOutcome> {
    const later: PriceCallOutcome = { kind: 'retry', answer: refusal, retryAfterMs: PLATFORM_C_REPEATED_REQUEST_WINDOW_MS };
    try {
      const response = await this.calls.call(credentials, 'GET', platformCMenuPath(credentials.settings.supplierId, credentials.settings.storeId));
      if (response.status < 200 || response.status >= 300) return later;
      const menu = parsePlatformCMenu(response.body);
      const product = menu.ok ? menu.products.find((entry) => entry.platformProductId === productId) : undefined;
      const same = product?.price != null && typeof sellingPrice === 'number' && Math.round(product.price * 100) === Math.round(sellingPrice * 100);
      return same ? { kind: 'done', answer: refusal, alreadyDone: true } : later;
    } catch {
      return later;
    }
  }

  async checkPrice(credentials: IntegrationCredentials, followUp: Record<string, string | number>): Promise<PriceCallOutcome> {
    const problem = this.calls.credentialProblem(credentials);
    if (problem) return { kind: 'failed', answer: { httpStatus: null, body: null, error: problem }, reason: problem };
    const batchRequestId = String(followUp.batchRequestId ?? '');
    const productId = String(followUp.productId ?? '');
    if (!batchRequestId) return { kind: 'failed', answer: { httpStatus: null, body: null, error: 'no batchRequestId' }, reason: 'the price command holds no batchRequestId to check' };
    try {
      const response = await this.calls.call(credentials, 'GET', platformCBatchPath(credentials.settings.supplierId, batchRequestId));
      if (response.status === 404)
        return { kind: 'failed', answer: answerOf(response), reason: `PLATFORM_C does not know batch request ${batchRequestId} (results are kept 4 hours)` };
      const outcome = outcomeOf(response);
      if (outcome.kind !== 'done') return outcome;
      return readBatch(response, productId, followUp);
    } catch (error) {
      if (error instanceof PlatformNetworkError) return { kind: 'retry', answer: networkAnswer(error) };
      return outcomeOfError(error);
    }
  }
}

/** Our product's item in a batch result: done, failed with the platform's reasons, or still pending. */
function readBatch(response: PlatformResponse, productId: string, followUp: Record<string, string | number>): PriceCallOutcome {
  const answer = answerOf(response);
  if (!isRecord(response.body)) return { kind: 'failed', answer, reason: 'PLATFORM_C answered a batch result that is not a JSON object' };
  const batch = response.body;
  const items = Array.isArray(batch.items) ? batch.items.filter(isRecord) : [];
  const item = items.find((entry) => String(requestedProductId(entry) ?? '') === productId);
  const batchStatus = typeof batch.status === 'string' ? batch.status.toUpperCase() : '';
  const itemAnswer: PlatformAnswer = { httpStatus: response.status, body: { batchRequestId: batch.batchRequestId, status: batch.status ?? null, item: item ?? null } };
  if (item) {
    const itemStatus = typeof item.status === 'string' ? item.status.toUpperCase() : '';
    const reasons = Array.isArray(item.failureReasons) ? item.failureReasons.map((reason) => (typeof reason === 'string' ? reason : JSON.stringify(reason))) : [];
    if (itemStatus === 'FAILED' || reasons.length > 0) {
      if (reasons.length > 0 && reasons.every((reason) => PLATFORM_C_REPEATED_PRICE.test(reason))) return { kind: 'done', answer: itemAnswer, alreadyDone: true };
      return { kind: 'failed', answer: itemAnswer, reason: `PLATFORM_C refused the price: ${reasons.join('; ') || 'item FAILED without a reason'}` };
    }
    if (itemStatus === 'SUCCESS') return { kind: 'done', answer: itemAnswer };
  }
  if (batchStatus === 'COMPLETED')
    return { kind: 'failed', answer: itemAnswer, reason: `PLATFORM_C completed batch request ${String(batch.batchRequestId ?? '')} without a result for product ${productId}` };
  const requestedAt = Number(followUp.requestedAt);
  if (Number.isFinite(requestedAt) && Date.now() - requestedAt > PLATFORM_C_BATCH_KEPT_MS)
    return { kind: 'failed', answer: itemAnswer, reason: `PLATFORM_C gave no result for product ${productId} in batch request ${String(followUp.batchRequestId)} within the 4 hours it keeps batches` };
  return { kind: 'pending', answer: itemAnswer, followUp, checkAfterMs: PLATFORM_C_PRICE_CHECK_AFTER_MS };
}

function requestedProductId(item: Record<string, unknown>): unknown {
  const requestItem = isRecord(item.requestItem) ? item.requestItem : {};
  return requestItem.productId ?? (isRecord(requestItem.request) ? requestItem.request.productId : undefined);
}

export type PlatformCMenuParse = { ok: true; products: MenuProduct[] } | { ok: false; reason: string };

/** The menu answer as MenuProducts (trendyol-go.assumptions.ts, "Menu"); a body of another shape is a reason, never an exception. */
export function parsePlatformCMenu(body: unknown): PlatformCMenuParse {
  if (!isRecord(body)) return { ok: false, reason: 'the body is not a JSON object' };
  if (!Array.isArray(body.products)) return { ok: false, reason: 'the body has no `products` array' };
  const entries = body.products.filter(isRecord);
  const names = new Map(entries.filter((entry) => idOf(entry.id) !== null).map((entry) => [idOf(entry.id)!, typeof entry.name === 'string' ? entry.name : null]));

  const sectionsOf = new Map<string, Array<{ id: number | string; name: string | null; onSale: boolean }>>();
  for (const section of (Array.isArray(body.sections) ? body.sections : []).filter(isRecord)) {
    const listed = { id: section.id as number | string, name: typeof section.name === 'string' ? section.name : null, onSale: isActive(section.status) };
    for (const ref of Array.isArray(section.products) ? section.products : []) {
      const id = idOf(isRecord(ref) ? ref.id : ref);
      if (id !== null) sectionsOf.set(id, [...(sectionsOf.get(id) ?? []), listed]);
    }
  }

  const groups = new Map<string, MenuOptionGroup>();
  const optionIds = new Set<string>();
  for (const group of (Array.isArray(body.modifierGroups) ? body.modifierGroups : []).filter(isRecord)) {
    const id = idOf(group.id);
    if (id === null) continue;
    const options = (Array.isArray(group.modifierProducts) ? group.modifierProducts : []).filter(isRecord).flatMap((option) => {
      const optionId = idOf(option.id);
      if (optionId === null) return [];
      optionIds.add(optionId);
      return [{ id: optionId, name: names.get(optionId) ?? optionId, price: moneyOf(option.price) }];
    });
    groups.set(id, { id, name: typeof group.name === 'string' ? group.name : id, options });
  }
  const ingredients = new Map(
    (Array.isArray(body.ingredients) ? body.ingredients : [])
      .filter(isRecord)
      .filter((entry) => idOf(entry.id) !== null)
      .map((entry) => [idOf(entry.id)!, { id: idOf(entry.id)!, name: typeof entry.name === 'string' ? entry.name : idOf(entry.id)!, price: moneyOf(entry.price) }]),
  );

  const products: MenuProduct[] = [];
  for (const entry of entries) {
    const id = idOf(entry.id);
    if (id === null) return { ok: false, reason: 'a product has no `id`' };
    const listedIn = sectionsOf.get(id) ?? [];
    const section = listedIn.find((entry) => entry.onSale) ?? listedIn[0];
    // A modifier product in no section is an option of other products, not something sold alone.
    if (!section && optionIds.has(id)) continue;
    // A section taken off sale takes its products with it (the section status call).
    const sectionOnSale = listedIn.length === 0 || listedIn.some((entry) => entry.onSale);
    const optionGroups = refsOf(entry.modifierGroups).flatMap((ref) => (groups.has(ref) ? [groups.get(ref)!] : []));
    const extras = refsOf(entry.extraIngredients).flatMap((ref) => (ingredients.has(ref) ? [ingredients.get(ref)!] : []));
    if (extras.length > 0) optionGroups.push({ id: 'extraIngredients', name: 'extraIngredients', options: extras });
    const data: PlatformCProductData = { productId: entry.id as number | string, sectionId: section?.id ?? null, originalPrice: moneyOf(entry.originalPrice) };
    products.push({
      platformProductId: id,
      name: typeof entry.name === 'string' && entry.name.trim() !== '' ? entry.name : id,
      price: moneyOf(entry.sellingPrice) ?? (isRecord(entry.price) ? moneyOf(entry.price.sellingPrice) : moneyOf(entry.price)),
      category: section?.name ?? null,
      status: isActive(entry.status) && sectionOnSale ? 'ACTIVE' : 'INACTIVE',
      externalCode: externalCodeOf(entry),
      options: optionGroups,
      platformData: { ...data },
    });
  }
  return { ok: true, products };
}

/** No status reads as on sale (as the clients read it); ACTIVE is, anything else is not. */
function isActive(status: unknown): boolean {
  return status === undefined || status === null || String(status).toUpperCase() === 'ACTIVE';
}

function externalCodeOf(entry: Record<string, unknown>): string | null {
  for (const field of PLATFORM_C_EXTERNAL_CODE_FIELDS) {
    const value = entry[field];
    if ((typeof value === 'string' && value.trim() !== '') || typeof value === 'number') return String(value).trim();
  }
  return null;
}

function idOf(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  return null;
}

/** Ids of a product's refs (`[{ id, position }]` or bare ids). */
function refsOf(value: unknown): string[] {
  return (Array.isArray(value) ? value : []).map((ref) => idOf(isRecord(ref) ? ref.id : ref)).filter((id): id is string => id !== null);
}

function moneyOf(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  return null;
}

/** 2xx done; 429 (the endpoint's 10 s window) and 5xx retry; other 4xx final with the platform's message. */
function outcomeOf(response: PlatformResponse): PlatformCallOutcome {
  const outcome = classifyResponse(response);
  if (outcome.kind === 'retry' && response.status === 429) return { ...outcome, retryAfterMs: outcome.retryAfterMs ?? PLATFORM_C_RATE_LIMIT_WINDOW_MS };
  if (outcome.kind === 'failed') {
    const message = platformMessage(response.body);
    return { ...outcome, reason: `PLATFORM_C refused the call (HTTP ${response.status}${message ? `: ${message}` : ''})` };
  }
  return outcome;
}

/** The platform's own message (`errors[].message`, or `message`), for the operator. */
function platformMessage(body: unknown): string {
  if (!isRecord(body)) return '';
  const errors = Array.isArray(body.errors)
    ? body.errors
        .filter(isRecord)
        .map((entry) => entry.message)
        .filter((message): message is string => typeof message === 'string')
    : [];
  if (errors.length > 0) return errors.join('; ');
  return typeof body.message === 'string' ? body.message : '';
}

function readOutcomeOfError(error: unknown): MenuReadOutcome {
  if (error instanceof PlatformNetworkError) return { kind: 'retry', answer: networkAnswer(error) };
  const outcome = outcomeOfError(error);
  if (outcome.kind === 'retry') return { kind: 'retry', answer: outcome.answer, retryAfterMs: outcome.retryAfterMs };
  if (outcome.kind === 'failed') return { kind: 'failed', answer: outcome.answer, reason: outcome.reason };
  throw error;
}
