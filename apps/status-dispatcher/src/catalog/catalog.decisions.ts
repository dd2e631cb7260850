import type { CatalogDriftChange, CatalogDriftKind } from '@courier/contracts';
import { forbiddenCharacterIn, normaliseProductName } from '@courier/domain';
import type { MenuProduct, MenuReadOutcome } from '@courier/platforms';
import type { StoredAnswer } from '../status-updates/status-update.model';
import { AttemptFacts, nextAttempt, RetryPolicy } from '../status-updates/status-dispatch.decisions';

/**
 * What the catalog decides, as pure functions of the facts read (no database, no clock of its own):
 * which platform products link to a code by themselves, which code a product is proposed, what a
 * re-import changed, what a menu read's answer does to the import, and whether a request is well formed.
 */

export { normaliseProductName };

/** A product code: what the restaurant calls its product (1-64 characters, nothing invisible, no surrounding space). */
export const PRODUCT_CODE_MAX = 64;

/** Why a product code is refused, or undefined when it is a code. */
export function productCodeProblem(code: string): string | undefined {
  if (code.length < 1 || code.length > PRODUCT_CODE_MAX) return `must be 1-${PRODUCT_CODE_MAX} characters`;
  if (code.trim() !== code) return 'must not start or end with white space';
  const forbidden = forbiddenCharacterIn(code);
  if (forbidden !== undefined) return `must be printable (${forbidden} is not)`;
  return undefined;
}

/** Cents catalog_products.price (numeric(12, 2)) holds at most. */
const MAX_STORED_CENTS = 999_999_999_999;

/**
 * A platform's product as the catalog can store it: no NUL in any text (PostgreSQL's text and jsonb
 * refuse it) and a price the column holds, else none (as a menu without a price): one product's
 * junk must not fail the whole import, read again and again.
 */
export function storableProduct<P extends Pick<MenuProduct, 'price'>>(product: P): P {
  const price = product.price !== null && Number.isFinite(product.price) && Math.abs(Math.round(product.price * 100)) <= MAX_STORED_CENTS ? product.price : null;
  return { ...withoutNul(product), price };
}

function withoutNul<T>(value: T): T {
  if (typeof value === 'string') return value.replaceAll('\u0000', '') as T;
  if (Array.isArray(value)) return value.map(withoutNul) as T;
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key.replaceAll('\u0000', ''), withoutNul(entry)])) as T;
  return value;
}

/** A menu's products, each platform product once (the first one read wins: a menu listing a product in two categories). */
export function distinctProducts<P extends Pick<MenuProduct, 'platformProductId'>>(products: readonly P[]): P[] {
  const seen = new Set<string>();
  return products.filter((product) => !seen.has(product.platformProductId) && seen.add(product.platformProductId));
}

/** A link of one integration: platform product → the restaurant's code. */
export interface ProductLinkFact {
  platformProductId: string;
  productCode: string;
}

export interface AutoLink {
  platformProductId: string;
  productCode: string;
  /** The product's name: the code's name when the code is new. */
  name: string;
}

/**
 * The links an import makes by itself: a product carrying the restaurant's code (an external / PLU
 * field) is linked to that code, unless the product is linked already (a link set by hand wins, and
 * an earlier automatic one stays), or the code is linked to another product of this integration (one
 * product per code per integration: the first one keeps it), or the code is not a valid code.
 */
export function autoLinks(products: ReadonlyArray<Pick<MenuProduct, 'platformProductId' | 'name' | 'externalCode'>>, links: readonly ProductLinkFact[]): AutoLink[] {
  const linkedProducts = new Set(links.map((link) => link.platformProductId));
  const takenCodes = new Set(links.map((link) => link.productCode));
  const made: AutoLink[] = [];
  for (const product of products) {
    const productCode = product.externalCode?.trim();
    if (!productCode || productCodeProblem(productCode) !== undefined) continue;
    if (linkedProducts.has(product.platformProductId) || takenCodes.has(productCode)) continue;
    takenCodes.add(productCode);
    linkedProducts.add(product.platformProductId);
    made.push({ platformProductId: product.platformProductId, productCode, name: product.name });
  }
  return made;
}

/** A code a product could be proposed: its own name's key, or a product linked to it elsewhere. */
export interface ProposalCandidate {
  productCode: string;
  nameKey: string | null;
  /** The integrations where the code is linked already (a code takes one product per integration). */
  linkedOn: readonly string[];
}

/**
 * The code proposed for an unlinked product: the one code whose name (or the name of a product
 * linked to it on another integration) has the product's normalised name, and which is not linked
 * on the product's integration yet. None when no code matches, or when several do (the operator
 * chooses; a guess between two would be wrong half the time).
 */
export function proposeCode(product: { integrationId: string; nameKey: string }, candidates: readonly ProposalCandidate[]): string | null {
  if (product.nameKey === '') return null;
  const codes = new Set(candidates.filter((candidate) => candidate.nameKey === product.nameKey && !candidate.linkedOn.includes(product.integrationId)).map((candidate) => candidate.productCode));
  return codes.size === 1 ? [...codes][0] : null;
}

/** How a link set by hand is recorded: `confirmed` when it is the proposal the catalog made, else `manual`. */
export function manualLinkKind(proposed: string | null, productCode: string): 'confirmed' | 'manual' {
  return proposed === productCode ? 'confirmed' : 'manual';
}

/** What a diff compares of a product. */
export type ComparedProduct = Pick<MenuProduct, 'platformProductId' | 'name' | 'price' | 'status'>;

export type DriftChange = CatalogDriftChange;

const KIND_ORDER: readonly CatalogDriftKind[] = ['added', 'removed', 'linked_removed', 'price', 'name', 'status'];

const cents = (price: number | null): number | null => (price === null ? null : Math.round(price * 100));

/**
 * What changed on the platform's side between the last import (`previous`: the products it left on
 * the menu) and this one: products added, removed (`linked_removed` when linked to a code: an order
 * of that code can no longer reach the platform), and per product kept its price (to the cent),
 * name and status. `links` maps a platform product to its code. Ordered by product, then kind.
 */
export function diffMenus(previous: readonly ComparedProduct[], current: readonly ComparedProduct[], links: ReadonlyMap<string, string>): DriftChange[] {
  const before = new Map(previous.map((product) => [product.platformProductId, product]));
  const after = new Map(current.map((product) => [product.platformProductId, product]));
  const changes: DriftChange[] = [];
  const change = (kind: CatalogDriftKind, platformProductId: string, was: string | number | null, is: string | number | null) =>
    changes.push({ kind, platformProductId, productCode: links.get(platformProductId) ?? null, before: was, after: is });
  for (const [id, product] of after) {
    const was = before.get(id);
    if (!was) {
      change('added', id, null, null);
      continue;
    }
    if (cents(was.price) !== cents(product.price)) change('price', id, was.price, product.price);
    if (was.name !== product.name) change('name', id, was.name, product.name);
    if (was.status !== product.status) change('status', id, was.status, product.status);
  }
  for (const id of before.keys()) {
    if (!after.has(id)) change(links.has(id) ? 'linked_removed' : 'removed', id, null, null);
  }
  return changes.sort((a, b) => (a.platformProductId < b.platformProductId ? -1 : a.platformProductId > b.platformProductId ? 1 : KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind)));
}

/** What a menu read's answer other than the menu does to the import: read again at `at`, or the import fails. */
export type ImportAnswerDecision = { kind: 'retry'; at: Date; answer: StoredAnswer } | { kind: 'failed'; answer: StoredAnswer; error: string };

/**
 * A read that did not give the menu: network errors, 429 and 5xx are read again with the commands'
 * backoff (STATUS_PUSH_RETRY_*: exponential with jitter, at least the platform's Retry-After, given
 * up past the maximum age from the request); a refusal ends the import failed.
 */
export function decideImportAnswer(facts: AttemptFacts, outcome: Exclude<MenuReadOutcome, { kind: 'ok' }>, now: Date, policy: RetryPolicy, jitter: number): ImportAnswerDecision {
  const at = now.toISOString();
  if (outcome.kind === 'failed') return { kind: 'failed', answer: { ...outcome.answer, outcome: 'failed', at }, error: outcome.reason };
  const answer: StoredAnswer = { ...outcome.answer, outcome: 'retry', at };
  const next = nextAttempt(facts, { retryAfterMs: outcome.retryAfterMs }, now, policy, jitter);
  return 'giveUp' in next ? { kind: 'failed', answer, error: next.giveUp } : { kind: 'retry', at: next.at, answer };
}

/** A link asked by hand: which integration, which product (null: the code is unlinked there). */
export interface LinkRequest {
  integrationId: string;
  platformProductId: string | null;
}

/** A links request's problem beyond its DTO's field checks: an integration listed twice. */
export function linksRequestProblem(links: readonly LinkRequest[]): { field: string; message: string } | undefined {
  const seen = new Set<string>();
  for (const [index, link] of links.entries()) {
    if (seen.has(link.integrationId)) return { field: `links[${index}].integrationId`, message: 'is listed twice (one product per code per integration)' };
    seen.add(link.integrationId);
  }
  return undefined;
}

