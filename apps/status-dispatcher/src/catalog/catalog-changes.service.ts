import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@courier/contracts';
import { ProblemException } from '@courier/http';
import { UnitOfWork } from '@courier/messaging';
import { PlatformAdapters, PricePlan } from '@courier/platforms';
import type { DirectoryIntegration } from '../account-directory/account-directory.model';
import { AccountDirectoryRepository } from '../account-directory/account-directory.repository';
import { productRequestProblem, RequestProblem } from '../availability/availability.decisions';
import { AvailabilityRepository } from '../availability/availability.repository';
import { AvailabilityCommandRow } from '../availability/availability.model';
import { AvailabilityService } from '../availability/availability.service';
import { isUuid } from '../common/ids';
import { changeTargets, ChangeTarget, priceProblem, productCodeProblem } from './catalog-changes.decisions';
import type { ChangeResult, CodeLinkRow } from './catalog-changes.model';
import { CatalogChangesRepository } from './catalog-changes.repository';
import { CatalogAvailabilityRequestDto, CatalogPriceRequestDto } from './dto/catalog-change-request.dto';
import { CatalogChangeAcceptedDto, CatalogChangeIntegrationDto, CatalogChangeViewDto } from './dto/catalog-change-response.dto';

const iso = (value: Date | string | null | undefined): string | null => (value === null || value === undefined ? null : new Date(value).toISOString());

function problemOf(problem: RequestProblem): ProblemException {
  return new ProblemException(422, problem.code, `${problem.field} ${problem.message}.`, [{ field: problem.field, message: problem.message }]);
}

/**
 * Sold out and price by the restaurant's product code (docs/catalog.md): per active integration of
 * the account, the linked product gets one availability command (kind `product`, the availability
 * machinery's own path) or one price command (kind `price`, after the platform's planPrice); the
 * others are answered at once. The change and those answers are stored with the commands, in one
 * transaction, and read back per integration by its id.
 */
@Injectable()
export class CatalogChangesService {
  private readonly logger = new Logger('Catalog');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly catalog: CatalogChangesRepository,
    private readonly accounts: AccountDirectoryRepository,
    private readonly availability: AvailabilityService,
    private readonly commands: AvailabilityRepository,
    private readonly adapters: PlatformAdapters,
  ) {}

  async requestAvailability(restaurantId: string, productCode: string, body: CatalogAvailabilityRequestDto): Promise<CatalogChangeAcceptedDto> {
    const now = new Date();
    const change = { available: body.available, ...(body.until ? { until: new Date(body.until) } : {}) };
    const problem = productCodeProblem(productCode) ?? productRequestProblem(change, now);
    if (problem) throw problemOf(problem);
    const { targets } = await this.targetsOf(restaurantId, productCode);
    const changeId = randomUUID();
    const results = await this.unitOfWork.run(async (tx) => {
      const answered: ChangeResult[] = [];
      for (const target of targets) {
        if (target.kind === 'answer') {
          answered.push(answerOf(target));
          continue;
        }
        const { integration, platformProductId } = target;
        const queued = await this.availability.queueProductChange(tx, integration, { platformProductId, ...change }, { changeId, at: now, productCode });
        answered.push({ integrationId: integration.integrationId, platform: integration.platform, platformProductId, ...queued });
      }
      await this.catalog.recordChange(tx.manager, { id: changeId, restaurantId, productCode, kind: 'availability', request: { available: body.available, until: iso(change.until) }, results: answered, acceptedAt: now });
      return answered;
    });
    this.logger.log({ restaurantId, changeId, productCode, available: body.available, until: body.until, results: results.map((result) => `${result.integrationId}:${result.state}`) }, 'product availability change by code accepted');
    return { changeId, productCode, results };
  }

  async requestPrice(restaurantId: string, productCode: string, body: CatalogPriceRequestDto): Promise<CatalogChangeAcceptedDto> {
    const now = new Date();
    const problem = productCodeProblem(productCode) ?? priceProblem(body.price);
    if (problem) throw problemOf(problem);
    const { targets, links } = await this.targetsOf(restaurantId, productCode);
    const productOf = new Map(links.map((link) => [link.integrationId, link.product]));
    // Each platform's rules first (pure): what it refuses is answered, never queued.
    const planned = targets.map((target) => (target.kind === 'answer' ? { target } : { target, plan: this.planPrice(target.integration.platform, { platformProductId: target.platformProductId, price: body.price }, productOf.get(target.integration.integrationId) ?? null) }));
    const changeId = randomUUID();
    const results = await this.unitOfWork.run(async (tx) => {
      const answered: ChangeResult[] = [];
      for (const { target, plan } of planned) {
        if (target.kind === 'answer') {
          answered.push(answerOf(target));
          continue;
        }
        const entry = { integrationId: target.integration.integrationId, platform: target.integration.platform, platformProductId: target.platformProductId };
        if (!plan || plan.kind !== 'send') {
          answered.push({ ...entry, ...(plan ? { state: 'refused', code: plan.code, message: plan.message } : { state: 'unsupported', code: 'PRICE_UNSUPPORTED', message: `${entry.platform} has no price call here: nothing is sent.` }) });
          continue;
        }
        const commandId = await this.availability.queuePrice(tx, target.integration, { platformProductId: target.platformProductId, price: body.price }, plan, { changeId, at: now, productCode });
        answered.push({ ...entry, state: 'queued', commandId });
      }
      await this.catalog.recordChange(tx.manager, { id: changeId, restaurantId, productCode, kind: 'price', request: { price: body.price }, results: answered, acceptedAt: now });
      return answered;
    });
    this.logger.log({ restaurantId, changeId, productCode, price: body.price, results: results.map((result) => `${result.integrationId}:${result.state}${result.code ? `:${result.code}` : ''}`) }, 'price change by code accepted');
    return { changeId, productCode, results };
  }

  /** The platform's price plan; undefined: the platform has no catalog calls here. */
  private planPrice(platform: string, change: { platformProductId: string; price: number }, product: CodeLinkRow['product']): PricePlan | undefined {
    return this.adapters.get(platform)?.catalog?.planPrice(change, product);
  }

  /** The account's active platform integrations with what each gets; 404 when the catalog does not know the code at all. */
  private async targetsOf(restaurantId: string, productCode: string): Promise<{ targets: Array<ChangeTarget<DirectoryIntegration>>; links: CodeLinkRow[] }> {
    const [integrations, links] = await Promise.all([this.accounts.integrationsOf(restaurantId), this.catalog.linksOf(restaurantId, productCode)]);
    if (links.length === 0 && !(await this.catalog.codeKnown(restaurantId, productCode))) {
      throw new ProblemException(404, ErrorCode.ProductCodeNotFound, 'The catalog has no product with this code: no platform product is linked to it and it was never recorded.');
    }
    const platformIntegrations = integrations.filter((integration) => this.adapters.get(integration.platform) !== undefined);
    return { targets: changeTargets(platformIntegrations, links), links };
  }

  async change(restaurantId: string, changeId: string): Promise<CatalogChangeViewDto> {
    const change = isUuid(changeId) ? await this.catalog.change(restaurantId, changeId) : undefined;
    if (!change) throw new ProblemException(404, ErrorCode.CatalogChangeNotFound, 'The account has no catalog change with this id.');
    const commands = new Map((await this.commands.commandsOfChange(restaurantId, changeId)).map((command) => [command.id, command]));
    return {
      changeId: change.id,
      productCode: change.productCode,
      kind: change.kind,
      request: change.request,
      acceptedAt: iso(change.acceptedAt)!,
      integrations: change.results.map((result) => integrationView(result, result.commandId ? commands.get(result.commandId) : undefined)),
    };
  }
}

function answerOf(target: Extract<ChangeTarget, { kind: 'answer' }>): ChangeResult {
  return { integrationId: target.integration.integrationId, platform: target.integration.platform, platformProductId: target.platformProductId, state: target.state, code: target.code, message: target.message };
}

function integrationView(result: ChangeResult, command: AvailabilityCommandRow | undefined): CatalogChangeIntegrationDto {
  const pending = command && (command.state === 'queued' || command.state === 'retrying' || command.state === 'checking');
  return {
    integrationId: result.integrationId,
    platform: result.platform,
    platformProductId: result.platformProductId,
    state: command?.state ?? result.state,
    ...(result.code ? { code: result.code, message: result.message } : {}),
    commandId: command?.id ?? null,
    attempts: command?.attempts ?? 0,
    nextAt: pending ? iso(command.notBefore) : null,
    sentAt: iso(command?.sentAt),
    endedAt: iso(command?.endedAt),
    lastError: command?.lastError ?? null,
    lastAnswer: command?.lastAnswer ?? null,
  };
}
