import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ErrorCode, RestaurantAvailabilityChangedEvent, RoutingKey, StoreAvailabilityState } from '@courier/contracts';
import { ProblemException } from '@courier/http';
import { TransactionContext, UnitOfWork } from '@courier/messaging';
import { PlatformAdapters, PlatformAvailability, PricePlan, ProductPriceChange, StoreAvailabilityPlan, StoreAvailabilityRequest } from '@courier/platforms';
import type { DirectoryIntegration } from '../account-directory/account-directory.model';
import { AccountDirectoryRepository } from '../account-directory/account-directory.repository';
import { decidePlatformReport, productRequestProblem, RequestProblem, storeRequestProblem } from './availability.decisions';
import { AvailabilityMetrics } from './availability.metrics';
import { AVAILABILITY_PRODUCT_BACK_TASK, AVAILABILITY_REOPEN_TASK, AvailabilityRepository, productBackTaskKey, reopenTaskKey } from './availability.repository';
import { AskedBy, AvailabilityCommandRow, ReportSource, STORE_TARGET, StoreAvailabilityRow } from './availability.model';
import { ProductAvailabilityRequestDto, StoreAvailabilityRequestDto } from './dto/availability-request.dto';
import { AvailabilityCommandDto, AvailabilityViewDto, IntegrationChangeDto, ProductChangeAcceptedDto, ProductsAvailabilityDto, StoreChangeAcceptedDto } from './dto/availability-response.dto';

export interface ReopenTaskPayload {
  integrationId: string;
  requestSeq: number;
}

export interface ProductBackTaskPayload {
  integrationId: string;
  platformProductId: string;
  requestSeq: number;
}

/** What a platform reports of a store, by read-back or by its own call. */
export interface PlatformReport {
  state: StoreAvailabilityState;
  until: Date | null;
  reason: string | null;
  source: ReportSource;
}

const iso = (value: Date | string | null | undefined): string | null => (value === null || value === undefined ? null : new Date(value).toISOString());

function problemOf(problem: RequestProblem): ProblemException {
  return new ProblemException(422, problem.code, `${problem.field} ${problem.message}.`, [{ field: problem.field, message: problem.message }]);
}

/**
 * The restaurant's availability on its platforms (docs/availability.md): a change asked by the
 * restaurant or the courier core becomes, per integration, the asked state and one durable command
 * (sent by AvailabilityCommandWorker), with its timer at `until`; what a platform reports by itself is
 * compared with what was asked and published once per change.
 */
@Injectable()
export class AvailabilityService {
  private readonly logger = new Logger('Availability');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly availability: AvailabilityRepository,
    private readonly accounts: AccountDirectoryRepository,
    private readonly adapters: PlatformAdapters,
    private readonly metrics: AvailabilityMetrics,
  ) {}

  /** The platform's availability calls (undefined: the platform has none, or the integration is no platform's). */
  availabilityOf(platform: string): PlatformAvailability | undefined {
    return this.adapters.get(platform)?.availability;
  }

  /** The account's live delivery-platform integrations (those a platform adapter serves). */
  private async platformIntegrations(restaurantId: string): Promise<DirectoryIntegration[]> {
    return (await this.accounts.integrationsOf(restaurantId)).filter((integration) => this.adapters.get(integration.platform) !== undefined);
  }

  /** The integrations a store change goes to: the listed ones (each checked), or every active, verified one. */
  private async storeTargets(restaurantId: string, integrationIds: string[] | undefined): Promise<DirectoryIntegration[]> {
    const own = await this.platformIntegrations(restaurantId);
    if (!integrationIds) return own.filter((integration) => integration.isActive && integration.verified);
    const byId = new Map(own.map((integration) => [integration.integrationId, integration]));
    const unknown = integrationIds.filter((id) => !byId.has(id));
    if (unknown.length > 0) {
      throw new ProblemException(404, ErrorCode.IntegrationNotFound, `The account has no delivery-platform integration ${unknown.join(', ').slice(0, 300)}.`, unknown.map((id, index) => ({ field: `integrationIds[${integrationIds.indexOf(id)}]`, message: `no such integration of this account (${index + 1} of ${unknown.length})` })));
    }
    return integrationIds.map((id) => this.usable(byId.get(id)!));
  }

  /** An integration a change may be sent to: active and verified by its platform, else 409 with the reason. */
  private usable(integration: DirectoryIntegration): DirectoryIntegration {
    if (!integration.isActive) throw new ProblemException(409, ErrorCode.IntegrationDisabled, `The integration ${integration.integrationId} is not active: nothing is sent for it.`);
    if (!integration.verified) throw new ProblemException(409, ErrorCode.IntegrationNotVerified, `The integration ${integration.integrationId} is not verified by its platform yet: nothing is sent for it.`);
    return integration;
  }

  async requestStore(restaurantId: string, body: StoreAvailabilityRequestDto, by: Exclude<AskedBy, 'timer'>): Promise<StoreChangeAcceptedDto> {
    const now = new Date();
    const request: StoreAvailabilityRequest = { state: body.state, ...(body.until ? { until: new Date(body.until) } : {}), ...(body.busyMinutes !== undefined ? { busyMinutes: body.busyMinutes } : {}) };
    const problem = storeRequestProblem(request, now);
    if (problem) throw problemOf(problem);
    const targets = await this.storeTargets(restaurantId, body.integrationIds);
    const changeId = randomUUID();
    const plans = targets.map((integration) => ({ integration, plan: this.planStore(integration.platform, request, now) }));
    const answers = await this.unitOfWork.run(async (tx) => {
      const results: IntegrationChangeDto[] = [];
      for (const { integration, plan } of plans) {
        const entry: IntegrationChangeDto = { integrationId: integration.integrationId, platform: integration.platform, state: plan.kind === 'send' ? 'queued' : 'unsupported' };
        if (plan.kind === 'unsupported') {
          results.push({ ...entry, code: plan.code, message: plan.message });
          continue;
        }
        const commandId = await this.queueStore(tx, integration, request, plan, { by, reason: body.reason ?? null, changeId, at: now });
        results.push({ ...entry, commandId, ...(plan.instead ? { code: plan.instead.code, message: plan.instead.message } : {}) });
      }
      return results;
    });
    this.logger.log({ restaurantId, changeId, state: request.state, until: body.until, by, integrations: answers.map((answer) => `${answer.integrationId}:${answer.state}`) }, 'store availability change accepted');
    return { changeId, integrations: answers };
  }

  private planStore(platform: string, request: StoreAvailabilityRequest, now: Date): StoreAvailabilityPlan {
    const availability = this.availabilityOf(platform);
    if (!availability) return { kind: 'unsupported', code: 'AVAILABILITY_NOT_CONFIGURED', message: `${platform}'s availability calls are not available here.` };
    return availability.planStore(request, now);
  }

  /** In the caller's transaction: the asked state, its command (superseding the older ones) and its timer. */
  private async queueStore(
    tx: TransactionContext,
    integration: Pick<DirectoryIntegration, 'integrationId' | 'restaurantId' | 'platform'>,
    request: StoreAvailabilityRequest,
    plan: Extract<StoreAvailabilityPlan, { kind: 'send' }>,
    asked: { by: AskedBy; reason: string | null; changeId: string; at: Date },
  ): Promise<string> {
    await this.availability.lockStore(tx.manager, integration);
    const until = request.until ?? null;
    const requestSeq = await this.availability.askStore(tx.manager, integration.integrationId, { state: request.state, until, busyMinutes: request.busyMinutes ?? null, reason: asked.reason, by: asked.by, changeId: asked.changeId, at: asked.at });
    const { id } = await this.availability.queueCommand(tx.manager, {
      changeId: asked.changeId,
      integrationId: integration.integrationId,
      restaurantId: integration.restaurantId,
      platform: integration.platform,
      kind: 'store',
      target: STORE_TARGET,
      request: { state: plan.state, until: iso(until), busyMinutes: request.busyMinutes ?? null },
      params: plan.params,
      requestedBy: asked.by,
      acceptedAt: asked.at,
    });
    tx.scheduled += 1;
    if (until) await tx.schedule({ kind: AVAILABILITY_REOPEN_TASK, dueAt: until, payload: { integrationId: integration.integrationId, requestSeq } satisfies ReopenTaskPayload, dedupeKey: reopenTaskKey(integration.integrationId, requestSeq) });
    return id;
  }

  /**
   * The timer of a timed change: OPEN again, only if the change that set it is still the last one
   * asked (its request_seq, checked under the store row's lock). A second run of the timer (another
   * replica after a lease ran out) or a newer change finds the seq moved on and does nothing.
   */
  async reopen(payload: ReopenTaskPayload): Promise<void> {
    const opened = await this.unitOfWork.run(async (tx) => {
      const row = await this.availability.lockExistingStore(tx.manager, payload.integrationId);
      if (!row || row.requestSeq !== payload.requestSeq) return false;
      const integration = { integrationId: payload.integrationId, restaurantId: row.restaurantId, platform: row.platform };
      const now = new Date();
      const plan = this.planStore(integration.platform, { state: 'OPEN' }, now);
      if (plan.kind !== 'send') {
        await this.availability.askStore(tx.manager, integration.integrationId, { state: 'OPEN', until: null, busyMinutes: null, reason: 'until reached', by: 'timer', changeId: randomUUID(), at: now });
        return true;
      }
      await this.queueStore(tx, integration, { state: 'OPEN' }, plan, { by: 'timer', reason: 'until reached', changeId: randomUUID(), at: now });
      return true;
    });
    if (opened) this.logger.log({ integrationId: payload.integrationId }, 'timed store change ended: OPEN queued');
  }

  async view(restaurantId: string): Promise<AvailabilityViewDto> {
    const integrations = await this.platformIntegrations(restaurantId);
    const ids = integrations.map((integration) => integration.integrationId);
    const [stores, commands] = await this.availability.inOneSnapshot(async (db) => [await this.availability.stores(ids, db), await this.availability.latestCommands(ids, 'store', db)] as const);
    const storeOf = new Map(stores.map((row) => [row.integrationId, row]));
    const commandOf = new Map(commands.map((row) => [row.integrationId, row]));
    return {
      restaurantId,
      integrations: integrations.map((integration) => {
        const store = storeOf.get(integration.integrationId);
        const last = commandOf.get(integration.integrationId) ?? null;
        return {
          integrationId: integration.integrationId,
          platform: integration.platform,
          providerRestaurantId: integration.providerRestaurantId,
          ...storeView(store),
          pending: last && (last.state === 'queued' || last.state === 'retrying') ? commandView(last) : null,
          lastCommand: last ? commandView(last) : null,
        };
      }),
    };
  }

  /** The account's integration for a product change or read: 404 when not the account's delivery-platform integration. */
  private async ownIntegration(restaurantId: string, integrationId: string): Promise<DirectoryIntegration> {
    const integration = (await this.platformIntegrations(restaurantId)).find((candidate) => candidate.integrationId === integrationId);
    if (!integration) throw new ProblemException(404, ErrorCode.IntegrationNotFound, 'The account has no delivery-platform integration with this id.');
    return integration;
  }

  async requestProduct(restaurantId: string, integrationId: string, platformProductId: string, body: ProductAvailabilityRequestDto): Promise<ProductChangeAcceptedDto> {
    const now = new Date();
    const change = { platformProductId, available: body.available, ...(body.until ? { until: new Date(body.until) } : {}) };
    const problem = productRequestProblem(change, now);
    if (problem) throw problemOf(problem);
    const integration = this.usable(await this.ownIntegration(restaurantId, integrationId));
    const changeId = randomUUID();
    const availability = this.availabilityOf(integration.platform);
    const plan = availability ? availability.planProduct(change, now) : ({ kind: 'unsupported', code: 'AVAILABILITY_NOT_CONFIGURED', message: `${integration.platform}'s availability calls are not available here.` } as const);
    const entry = { changeId, integrationId, platform: integration.platform, platformProductId };
    if (plan.kind === 'unsupported') return { ...entry, state: 'unsupported', code: plan.code, message: plan.message };
    const commandId = await this.unitOfWork.run((tx) => this.queueProduct(tx, integration, change, plan.params, { by: 'restaurant', changeId, at: now }));
    return { ...entry, state: 'queued', commandId, ...(plan.instead ? { code: plan.instead.code, message: plan.instead.message } : {}) };
  }

  /**
   * In the caller's transaction: one product switched on one integration as requestProduct does it
   * (the platform's plan, the asked row, the command superseding older ones, the timer at `until`),
   * under the caller's change id. For a change by the restaurant's product code (the catalog).
   */
  async queueProductChange(
    tx: TransactionContext,
    integration: Pick<DirectoryIntegration, 'integrationId' | 'restaurantId' | 'platform'>,
    change: { platformProductId: string; available: boolean; until?: Date },
    asked: { changeId: string; at: Date; productCode: string },
  ): Promise<{ state: 'queued'; commandId: string; code?: string; message?: string } | { state: 'unsupported'; code: string; message: string }> {
    const availability = this.availabilityOf(integration.platform);
    const plan = availability ? availability.planProduct(change, asked.at) : ({ kind: 'unsupported', code: 'AVAILABILITY_NOT_CONFIGURED', message: `${integration.platform}'s availability calls are not available here.` } as const);
    if (plan.kind === 'unsupported') return { state: 'unsupported', code: plan.code, message: plan.message };
    const commandId = await this.queueProduct(tx, integration, change, plan.params, { by: 'restaurant', changeId: asked.changeId, at: asked.at, productCode: asked.productCode });
    return { state: 'queued', commandId, ...(plan.instead ? { code: plan.instead.code, message: plan.instead.message } : {}) };
  }

  /** In the caller's transaction: a price command (kind `price`; a pending one of the same product not being sent is superseded). */
  async queuePrice(
    tx: TransactionContext,
    integration: Pick<DirectoryIntegration, 'integrationId' | 'restaurantId' | 'platform'>,
    change: ProductPriceChange,
    plan: Extract<PricePlan, { kind: 'send' }>,
    asked: { changeId: string; at: Date; productCode: string },
  ): Promise<string> {
    const { id } = await this.availability.queueCommand(tx.manager, {
      changeId: asked.changeId,
      integrationId: integration.integrationId,
      restaurantId: integration.restaurantId,
      platform: integration.platform,
      kind: 'price',
      target: change.platformProductId,
      productCode: asked.productCode,
      request: { platformProductId: change.platformProductId, price: change.price, productCode: asked.productCode },
      params: plan.params,
      requestedBy: 'restaurant',
      acceptedAt: asked.at,
    });
    tx.scheduled += 1;
    return id;
  }

  private async queueProduct(
    tx: TransactionContext,
    integration: Pick<DirectoryIntegration, 'integrationId' | 'restaurantId' | 'platform'>,
    change: { platformProductId: string; available: boolean; until?: Date },
    params: Record<string, string | number | boolean | null>,
    asked: { by: AskedBy; changeId: string; at: Date; productCode?: string },
  ): Promise<string> {
    const until = change.until ?? null;
    const requestSeq = await this.availability.askProduct(tx.manager, integration, { platformProductId: change.platformProductId, available: change.available, until, changeId: asked.changeId, at: asked.at });
    const { id } = await this.availability.queueCommand(tx.manager, {
      changeId: asked.changeId,
      integrationId: integration.integrationId,
      restaurantId: integration.restaurantId,
      platform: integration.platform,
      kind: 'product',
      target: change.platformProductId,
      productCode: asked.productCode ?? null,
      request: { platformProductId: change.platformProductId, available: change.available, until: iso(until) },
      params,
      requestedBy: asked.by,
      acceptedAt: asked.at,
    });
    tx.scheduled += 1;
    if (until) {
      await tx.schedule({
        kind: AVAILABILITY_PRODUCT_BACK_TASK,
        dueAt: until,
        payload: { integrationId: integration.integrationId, platformProductId: change.platformProductId, requestSeq } satisfies ProductBackTaskPayload,
        dedupeKey: productBackTaskKey(integration.integrationId, change.platformProductId, requestSeq),
      });
    }
    return id;
  }

  /** The timer of a product sold out until a time: back on, only if that change is still the last one asked. */
  async productBack(payload: ProductBackTaskPayload): Promise<void> {
    await this.unitOfWork.run(async (tx) => {
      const row = await this.availability.lockProduct(tx.manager, payload.integrationId, payload.platformProductId);
      if (!row || row.requestSeq !== payload.requestSeq) return;
      const now = new Date();
      const change = { platformProductId: payload.platformProductId, available: true };
      const plan = this.availabilityOf(row.platform)?.planProduct(change, now);
      if (plan?.kind !== 'send') return;
      await this.queueProduct(tx, row, change, plan.params, { by: 'timer', changeId: randomUUID(), at: now });
    });
  }

  async products(restaurantId: string, integrationId: string): Promise<ProductsAvailabilityDto> {
    const integration = await this.ownIntegration(restaurantId, integrationId);
    const [rows, commands] = await this.availability.inOneSnapshot(async (db) => [await this.availability.productsOff(integrationId, db), await this.availability.latestCommands([integrationId], 'product', db)] as const);
    const commandOf = new Map(commands.map((command) => [command.target, command]));
    return {
      integrationId,
      platform: integration.platform,
      products: rows.map((row) => {
        const last = commandOf.get(row.platformProductId);
        return {
          platformProductId: row.platformProductId,
          available: row.available,
          until: iso(row.until),
          askedAt: iso(row.askedAt)!,
          changeId: row.changeId,
          confirmedAvailable: row.confirmedAvailable,
          confirmedAt: iso(row.confirmedAt),
          lastCommand: last ? commandView(last) : null,
        };
      }),
    };
  }

  /**
   * What a platform reports of a store (read back, or its own call): recorded under the store row's
   * lock; a confirmation of what was asked is recorded as such; a change of the platform's own is
   * published (restaurant.availability_changed through the outbox) once, counted, and logged.
   */
  async recordPlatformReport(integration: Pick<DirectoryIntegration, 'integrationId' | 'restaurantId' | 'platform' | 'providerRestaurantId'>, report: PlatformReport): Promise<{ published: boolean }> {
    const now = new Date();
    const outcome = await this.unitOfWork.run(async (tx) => {
      const store: StoreAvailabilityRow = await this.availability.lockStore(tx.manager, integration);
      const decision = decidePlatformReport({
        asked: store.askedState,
        commandPending: await this.availability.storeCommandPending(tx.manager, integration.integrationId),
        reported: report.state,
        previouslySeen: store.platformState,
        lastPublished: store.reportedState,
      });
      await this.availability.recordPlatformState(tx.manager, integration.integrationId, { ...report, at: now, confirms: decision.confirms, lastPublished: decision.lastPublished });
      if (decision.publish) {
        const event: RestaurantAvailabilityChangedEvent = {
          changeEventId: randomUUID(),
          restaurantId: integration.restaurantId,
          integrationId: integration.integrationId,
          provider: integration.platform,
          providerRestaurantId: integration.providerRestaurantId,
          state: report.state,
          until: iso(report.until),
          expectedState: store.askedState,
          detectedBy: report.source,
          platformReason: report.reason,
          occurredAt: now.toISOString(),
        };
        await tx.publish(RoutingKey.RestaurantAvailabilityChanged, event);
      }
      return { decision, asked: store.askedState };
    });
    if (outcome.decision.publish) {
      this.metrics.platformChanges.inc({ platform: integration.platform, detected_by: report.source });
      if (report.state === 'CLOSED' && outcome.asked !== null && outcome.asked !== 'CLOSED') this.metrics.closedByPlatform.inc({ platform: integration.platform });
      this.logger.warn({ integrationId: integration.integrationId, platform: integration.platform, state: report.state, expectedState: outcome.asked, detectedBy: report.source, platformReason: report.reason }, 'the platform changed the store\'s state by itself');
    }
    return { published: outcome.decision.publish };
  }
}

function storeView(store: StoreAvailabilityRow | undefined) {
  return {
    asked: store?.askedState
      ? { state: store.askedState, until: iso(store.askedUntil), busyMinutes: store.askedBusyMinutes, reason: store.askedReason, by: store.askedBy!, at: iso(store.askedAt)!, changeId: store.changeId! }
      : null,
    confirmed: store?.confirmedState ? { state: store.confirmedState, until: iso(store.confirmedUntil), at: iso(store.confirmedAt)!, by: store.confirmedBy! } : null,
    platformReported: store?.platformState ? { state: store.platformState, until: iso(store.platformUntil), reason: store.platformReason, seenAt: iso(store.platformSeenAt)! } : null,
    lastAnswer: store?.lastAnswer ?? null,
    endsAt: store?.askedState && store.askedState !== 'OPEN' ? iso(store.askedUntil) : null,
  };
}

export function commandView(command: AvailabilityCommandRow): AvailabilityCommandDto {
  return {
    commandId: command.id,
    changeId: command.changeId,
    state: command.state,
    requestedBy: command.requestedBy,
    attempts: command.attempts,
    notBefore: iso(command.notBefore)!,
    acceptedAt: iso(command.acceptedAt)!,
    sentAt: iso(command.sentAt),
    lastError: command.lastError,
    lastAnswer: command.lastAnswer,
  };
}
