import { Injectable, Logger } from '@nestjs/common';
import { CATALOG_DRIFT_EVENT_MAX_CHANGES, CatalogDriftDetectedEvent, ErrorCode, RoutingKey } from '@courier/contracts';
import { ProblemException } from '@courier/http';
import { UnitOfWork } from '@courier/messaging';
import { isUniqueViolation } from '@courier/persistence';
import { MenuProduct, PlatformAdapters, PlatformAnswer, PlatformCatalog } from '@courier/platforms';
import type { DirectoryIntegration } from '../account-directory/account-directory.model';
import { AccountDirectoryRepository } from '../account-directory/account-directory.repository';
import { isUuid } from '../common/ids';
import { autoLinks, diffMenus, distinctProducts, linksRequestProblem, manualLinkKind, normaliseProductName, productCodeProblem, proposeCode, ProposalCandidate, storableProduct } from './catalog.decisions';
import { CatalogMetrics } from './catalog.metrics';
import { CatalogRepository } from './catalog.repository';
import { CatalogProblem, CodeRow, ImportCounts, ImportRow, LinkedProductRow } from './catalog.model';
import { DEFAULT_DRIFT_LIMIT, DriftQueryDto, SetProductLinksRequestDto } from './dto/catalog-request.dto';
import { CatalogProductDto, CatalogViewDto, DriftViewDto, ImportAcceptedDto, ImportViewDto, UnmappedViewDto } from './dto/catalog-response.dto';

/** One product per code per integration (catalog_links' UNIQUE (integration_id, product_code)). */
const LINK_CODE_CONSTRAINT = 'catalog_links_integration_id_product_code_key';
/** setLinks' transactions: the first, and one retry after a link made at the same moment. */
const LINK_ATTEMPTS = 2;

const iso = (value: Date | string | null | undefined): string | null => (value === null || value === undefined ? null : new Date(value).toISOString());

/** The integration an import writes for, as the directory has it. */
export type ImportIntegration = Pick<DirectoryIntegration, 'integrationId' | 'restaurantId' | 'platform' | 'providerRestaurantId'>;

/**
 * The restaurant's catalog (docs/catalog.md): imports asked by the restaurant or the schedule
 * (read by CatalogImportWorker), each menu read stored with its automatic links and its drift in
 * one transaction, the mapping by the restaurant's codes, links set by hand, and the drift found.
 */
@Injectable()
export class CatalogService {
  private readonly logger = new Logger('Catalog');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly catalog: CatalogRepository,
    private readonly accounts: AccountDirectoryRepository,
    private readonly adapters: PlatformAdapters,
    private readonly metrics: CatalogMetrics,
  ) {}

  /** The platform's menu calls (undefined: none here). */
  catalogOf(platform: string): PlatformCatalog | undefined {
    return this.adapters.get(platform)?.catalog;
  }

  /** The platforms whose menu can be read. */
  readablePlatforms(): string[] {
    return this.adapters.codes().filter((code) => this.catalogOf(code)?.readMenu !== undefined);
  }

  /** Why the platform's menu cannot be read (undefined: it can), in the adapter's words. */
  menuReadUnsupported(platform: string): string | undefined {
    const catalog = this.catalogOf(platform);
    if (catalog?.readMenu) return undefined;
    return catalog?.menuReadUnsupported ?? `${platform} has no menu calls here.`;
  }

  /** The account's live delivery-platform integrations (those a platform adapter serves). */
  private async platformIntegrations(restaurantId: string): Promise<DirectoryIntegration[]> {
    return (await this.accounts.integrationsOf(restaurantId)).filter((integration) => this.adapters.get(integration.platform) !== undefined);
  }

  async requestImport(restaurantId: string, integrationId: string): Promise<ImportAcceptedDto> {
    const integration = (await this.platformIntegrations(restaurantId)).find((candidate) => candidate.integrationId === integrationId);
    if (!integration) throw new ProblemException(404, ErrorCode.IntegrationNotFound, 'The account has no delivery-platform integration with this id.');
    if (!integration.isActive) throw new ProblemException(409, ErrorCode.IntegrationDisabled, `The integration ${integrationId} is not active: its menu is not read.`);
    if (!integration.verified) throw new ProblemException(409, ErrorCode.IntegrationNotVerified, `The integration ${integrationId} is not verified by its platform yet: its menu is not read.`);
    const unsupported = this.menuReadUnsupported(integration.platform);
    if (unsupported) throw new ProblemException(422, CatalogProblem.MenuReadUnsupported, unsupported);
    const queued = await this.unitOfWork.run(async (tx) => {
      const row = await this.catalog.queueImport(tx.manager, integration, 'restaurant', new Date());
      if (row.created) tx.scheduled += 1;
      return row;
    });
    this.logger.log({ restaurantId, integrationId, importId: queued.id, alreadyPending: !queued.created }, 'catalog import asked');
    return { importId: queued.id, state: queued.state, requestedAt: iso(queued.requestedAt)!, alreadyPending: !queued.created };
  }

  /** The schedule's turn: an import for every readable integration whose last one is older than the interval. */
  async queueScheduledImports(intervalMs: number): Promise<number> {
    const platforms = this.readablePlatforms();
    if (platforms.length === 0) return 0;
    const now = new Date();
    const queued = await this.catalog.queueScheduledImports(platforms, new Date(now.getTime() - intervalMs), now, 1000);
    if (queued > 0) this.logger.log({ queued }, 'scheduled catalog imports queued');
    return queued;
  }

  async importView(restaurantId: string, importId: string): Promise<ImportViewDto> {
    const row = isUuid(importId) ? await this.catalog.importOf(restaurantId, importId) : undefined;
    if (!row) throw new ProblemException(404, CatalogProblem.ImportNotFound, 'The account has no catalog import with this id.');
    return importView(row);
  }

  /**
   * A menu read stored, in one transaction under the import's lock (a second run of its task finds
   * it ended and writes nothing): the products (those no longer listed marked removed), the links
   * by the codes products carry, and, unless this is the integration's first import, the
   * differences with the previous one, with their event (its id chosen when the import was queued).
   */
  async storeMenu(importId: string, integration: ImportIntegration, menu: readonly MenuProduct[], answer: PlatformAnswer): Promise<ImportCounts | undefined> {
    const at = new Date();
    const products = distinctProducts(menu.map(storableProduct)).map((product) => ({ ...product, nameKey: normaliseProductName(product.name) }));
    const stored = await this.unitOfWork.run(async (tx) => {
      const row = await this.catalog.lockPending(tx.manager, importId);
      if (!row) return undefined;
      const compare = await this.catalog.hasDoneImport(tx.manager, row.integrationId);
      const previous = compare ? await this.catalog.menuOf(tx.manager, row.integrationId) : [];
      const existing = await this.catalog.linksOf(tx.manager, row.integrationId);
      const written = await this.catalog.storeMenu(tx.manager, row, products, at);
      const made = autoLinks(products, existing);
      const autoLinked = await this.catalog.insertAutoLinks(tx.manager, row, made.map((link) => ({ ...link, nameKey: normaliseProductName(link.name) })), at);
      const links = new Map([...existing, ...made].map((link) => [link.platformProductId, link.productCode]));
      const changes = compare ? diffMenus(previous, products, links) : [];
      await this.catalog.insertDrift(tx.manager, row, changes, at);
      if (changes.length > 0) {
        const event: CatalogDriftDetectedEvent = {
          driftEventId: row.driftEventId,
          restaurantId: row.restaurantId,
          integrationId: row.integrationId,
          provider: row.platform,
          providerRestaurantId: integration.providerRestaurantId,
          importId: row.id,
          changes: changes.slice(0, CATALOG_DRIFT_EVENT_MAX_CHANGES),
          omittedChanges: Math.max(0, changes.length - CATALOG_DRIFT_EVENT_MAX_CHANGES),
          detectedAt: at.toISOString(),
        };
        await tx.publish(RoutingKey.CatalogDriftDetected, event);
      }
      const counts: ImportCounts = { products: written.stored, removed: written.removed, autoLinked, drift: changes.length };
      await this.catalog.finish(tx.manager, row.id, counts, { httpStatus: answer.httpStatus, body: null, outcome: 'done', at: at.toISOString() }, at);
      return { row, counts, changes };
    });
    if (!stored) return undefined;
    this.metrics.imports.inc({ platform: stored.row.platform, state: 'done' });
    for (const change of stored.changes) this.metrics.drift.inc({ platform: stored.row.platform, kind: change.kind });
    const log = { importId, integrationId: stored.row.integrationId, platform: stored.row.platform, ...stored.counts };
    if (stored.changes.length > 0) this.logger.warn({ ...log, kinds: [...new Set(stored.changes.map((change) => change.kind))] }, 'catalog import found the menu changed on the platform\'s side');
    else this.logger.log(log, 'catalog import stored');
    return stored.counts;
  }

  async view(restaurantId: string): Promise<CatalogViewDto> {
    const integrations = (await this.platformIntegrations(restaurantId)).filter((integration) => integration.isActive);
    const [codes, linked] = await Promise.all([this.catalog.codesOf(restaurantId), this.catalog.linkedProductsOf(restaurantId)]);
    const links = linkIndex(linked);
    return { products: codes.map((code) => productView(code, integrations, links)) };
  }

  async unmapped(restaurantId: string): Promise<UnmappedViewDto> {
    const integrations = await this.platformIntegrations(restaurantId);
    if (integrations.length === 0) return { products: [] };
    const [rows, codes, linked] = await Promise.all([
      this.catalog.unlinkedProducts(integrations.map((integration) => integration.integrationId)),
      this.catalog.codesOf(restaurantId),
      this.catalog.linkedProductsOf(restaurantId),
    ]);
    const candidates = proposalCandidates(codes, linked);
    return {
      products: rows.map((row) => ({
        integrationId: row.integrationId,
        platform: row.platform,
        platformProductId: row.platformProductId,
        name: row.name,
        price: row.price,
        category: row.category,
        status: row.status,
        onMenu: row.onMenu,
        seenInOrders: row.orders,
        proposedProductCode: row.name === null ? null : proposeCode({ integrationId: row.integrationId, nameKey: normaliseProductName(row.name) }, candidates),
      })),
    };
  }

  /**
   * Sets the code's product on each listed integration (the others keep theirs), creating the code
   * when new: a product linked to another code moves to this one; a link is `confirmed` when it is
   * the catalog's proposal for the product, else `manual`. Answers the code as GET /catalog shows it.
   */
  async setLinks(restaurantId: string, productCode: string, body: SetProductLinksRequestDto): Promise<CatalogProductDto> {
    const codeProblem = productCodeProblem(productCode);
    if (codeProblem) throw new ProblemException(422, ErrorCode.ValidationError, `productCode ${codeProblem}.`, [{ field: 'productCode', message: codeProblem }]);
    const listProblem = linksRequestProblem(body.links);
    if (listProblem) throw new ProblemException(422, ErrorCode.ValidationError, `${listProblem.field} ${listProblem.message}.`, [listProblem]);
    const own = new Map((await this.platformIntegrations(restaurantId)).map((integration) => [integration.integrationId, integration]));
    const unknown = body.links.map((link, index) => ({ link, index })).filter(({ link }) => !own.has(link.integrationId));
    if (unknown.length > 0) {
      throw new ProblemException(404, ErrorCode.IntegrationNotFound, `The account has no delivery-platform integration ${unknown.map(({ link }) => link.integrationId).join(', ').slice(0, 300)}.`, unknown.map(({ index }) => ({ field: `links[${index}].integrationId`, message: 'no such integration of this account' })));
    }
    const at = new Date();
    // An import linking the same code on the same integration can commit between our delete and insert:
    // the retry reads its link and replaces it (the restaurant's request is the later word).
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.writeLinks(restaurantId, productCode, body, own, at);
        break;
      } catch (error) {
        if (!isUniqueViolation(error, [LINK_CODE_CONSTRAINT])) throw error;
        this.logger.warn({ restaurantId, productCode, attempt }, 'catalog links met a link made at the same moment');
        if (attempt >= LINK_ATTEMPTS) {
          throw new ProblemException(409, CatalogProblem.LinkConflict, `Another link of ${productCode.slice(0, 64)} was being made on the same integration at the same moment (an import); send the request again.`);
        }
      }
    }
    this.logger.log({ restaurantId, productCode, links: body.links.map((link) => `${link.integrationId}:${link.platformProductId ?? '-'}`) }, 'catalog links set');
    const integrations = [...own.values()].filter((integration) => integration.isActive);
    // The code itself, not looked up in codesOf (its first 5000 codes only).
    const [code, linked] = await Promise.all([this.catalog.codeOf(restaurantId, productCode), this.catalog.linkedProductsOf(restaurantId)]);
    return productView(code!, integrations, linkIndex(linked));
  }

  /** One transaction of setLinks: the restaurant's links and the code locked, each listed integration's link replaced. */
  private async writeLinks(restaurantId: string, productCode: string, body: SetProductLinksRequestDto, own: ReadonlyMap<string, DirectoryIntegration>, at: Date): Promise<void> {
    await this.unitOfWork.run(async (tx) => {
      await this.catalog.lockLinksOf(tx.manager, restaurantId);
      const code = await this.catalog.lockCode(tx.manager, restaurantId, productCode, at);
      const candidates = proposalCandidates(await this.catalog.codesOf(restaurantId, tx.manager), await this.catalog.linkedProductsOf(restaurantId, tx.manager));
      let firstName: string | null = null;
      for (const [index, link] of body.links.entries()) {
        const integration = own.get(link.integrationId)!;
        let linkedBy: 'manual' | 'confirmed' = 'manual';
        if (link.platformProductId !== null) {
          const product = await this.catalog.knownProduct(tx.manager, link.integrationId, link.platformProductId);
          if (!product) {
            throw new ProblemException(404, CatalogProblem.ProductNotFound, `The integration ${link.integrationId} has no product ${link.platformProductId} on its imported menu or in its orders.`, [{ field: `links[${index}].platformProductId`, message: 'not on the integration\'s imported menu nor in its orders' }]);
          }
          firstName ??= product.name;
          const proposed = product.name === null ? null : proposeCode({ integrationId: link.integrationId, nameKey: normaliseProductName(product.name) }, candidates);
          linkedBy = manualLinkKind(proposed, productCode);
        }
        await this.catalog.setLink(tx.manager, { integrationId: link.integrationId, restaurantId: integration.restaurantId, productCode, platformProductId: link.platformProductId, linkedBy, at });
      }
      const name = body.name ?? code.name ?? firstName;
      if (name !== null && name !== code.name) await this.catalog.nameCode(tx.manager, restaurantId, productCode, name, normaliseProductName(name));
    });
  }

  async drift(restaurantId: string, query: DriftQueryDto): Promise<DriftViewDto> {
    const rows = await this.catalog.driftOf(restaurantId, query.since ? new Date(query.since) : null, query.limit ?? DEFAULT_DRIFT_LIMIT);
    return {
      drift: rows.map((row) => ({
        driftId: row.id,
        importId: row.importId,
        integrationId: row.integrationId,
        platform: row.platform,
        platformProductId: row.platformProductId,
        productCode: row.productCode,
        kind: row.kind,
        before: row.before,
        after: row.after,
        detectedAt: iso(row.detectedAt)!,
      })),
    };
  }
}

/** What a proposal can point to: each code by its name, and by the name of each product linked to it. */
function proposalCandidates(codes: readonly CodeRow[], linked: readonly LinkedProductRow[]): ProposalCandidate[] {
  const linkedOn = new Map<string, string[]>();
  for (const link of linked) linkedOn.set(link.productCode, [...(linkedOn.get(link.productCode) ?? []), link.integrationId]);
  return [
    ...codes.map((code) => ({ productCode: code.productCode, nameKey: code.nameKey, linkedOn: linkedOn.get(code.productCode) ?? [] })),
    ...linked.map((link) => ({ productCode: link.productCode, nameKey: link.nameKey ?? (link.name === null ? null : normaliseProductName(link.name)), linkedOn: linkedOn.get(link.productCode) ?? [] })),
  ];
}

/** The links by integration and code (one product per code per integration). */
function linkIndex(linked: readonly LinkedProductRow[]): Map<string, LinkedProductRow> {
  return new Map(linked.map((link) => [`${link.integrationId}\n${link.productCode}`, link]));
}

function productView(code: CodeRow, integrations: readonly DirectoryIntegration[], links: ReadonlyMap<string, LinkedProductRow>): CatalogProductDto {
  return {
    productCode: code.productCode,
    name: code.name,
    source: code.source,
    integrations: integrations.map((integration) => {
      const link = links.get(`${integration.integrationId}\n${code.productCode}`);
      return {
        integrationId: integration.integrationId,
        platform: integration.platform,
        linked: link ? { platformProductId: link.platformProductId, name: link.name, price: link.price, status: link.status, linkedBy: link.linkedBy, removedAt: iso(link.removedAt) } : null,
      };
    }),
  };
}

function importView(row: ImportRow): ImportViewDto {
  return {
    importId: row.id,
    integrationId: row.integrationId,
    platform: row.platform,
    requestedBy: row.requestedBy,
    state: row.state,
    requestedAt: iso(row.requestedAt)!,
    startedAt: iso(row.startedAt),
    finishedAt: iso(row.finishedAt),
    attempts: row.attempts,
    counts: row.counts,
    lastAnswer: row.lastAnswer,
    lastError: row.lastError,
  };
}
