import { randomBytes, randomUUID } from 'node:crypto';
import { Registry } from 'prom-client';
import { IntegrationUpsertedEvent } from '@courier/contracts';
import { SecretBox, secretBinding } from '@courier/crypto';
import { ProblemException } from '@courier/http';
import { TaskOutcome } from '@courier/messaging';
import { platformClientConfig, PlatformAdapters, PLATFORMS } from '@courier/platforms';
import { createMediumDatabase, MediumContext, MediumDatabase, newMediumContext, waitFor } from '@courier/testing';
import { RecordingAvailability } from '../../test/availability';
import { installCatalog, ScriptedCatalog, seedLinkedProduct } from '../../test/catalog';
import { MEDIUM_SECRETS_KEYS } from '../../test/medium';
import { AccountDirectoryModule } from '../account-directory/account-directory.module';
import { AccountDirectoryRepository } from '../account-directory/account-directory.repository';
import { DispatcherConfig } from '../app/status-dispatcher.config';
import { PERSISTENCE } from '../app/persistence';
import { AVAILABILITY_COMMAND_TASK, AvailabilityRepository } from '../availability/availability.repository';
import { AvailabilityModule } from '../availability/availability.module';
import { PlatformCallBudgets } from '../platform-sessions/platform-call-budgets';
import { CatalogChangesModule } from './catalog-changes.module';
import { CatalogChangesService } from './catalog-changes.service';

/** The platforms' call budgets at the port: records what each call books and gives the slots scripted (default: room now). */
class ScriptedBudgets {
  readonly booked: Array<{ integrationId: string; call: string }> = [];
  readonly slots: number[] = [];

  async book(_platform: string, credentials: { integrationId: string }, call: string): Promise<{ slot: number; bookedAt: number } | undefined> {
    this.booked.push({ integrationId: credentials.integrationId, call });
    const slot = this.slots.shift();
    return slot === undefined ? undefined : { slot, bookedAt: Date.now() };
  }

  async bookNow(): Promise<boolean | undefined> {
    return undefined;
  }
}

/** Every platform's base URL on a closed local port: nothing here may reach a real host. */
const CLOSED_PLATFORMS = Object.fromEntries(['A', 'B', 'C', 'D'].map((letter) => [`PLATFORM_${letter}_BASE_URL`, 'http://127.0.0.1:9']));

/**
 * Changes by the restaurant's product code with the real service, repositories and command worker on
 * PostgreSQL, the platforms' catalog and availability at the port (ScriptedCatalog,
 * RecordingAvailability); each command's task is run by hand, as the task runner would when it is due.
 */
describe('catalog changes by product code (medium)', () => {
  let db: MediumDatabase;
  let ctx: MediumContext;
  let sut: CatalogChangesService;
  let commands: AvailabilityRepository;
  let adapters: PlatformAdapters;
  const budgets = new ScriptedBudgets();
  const box = SecretBox.fromKeyList(MEDIUM_SECRETS_KEYS);

  beforeAll(async () => {
    db = await createMediumDatabase('status_dispatcher', PERSISTENCE);
    adapters = new PlatformAdapters(platformClientConfig({ ...CLOSED_PLATFORMS, PLATFORM_HTTP_TIMEOUT_MS: '2000' }), undefined, { platforms: PLATFORMS });
    ctx = await newMediumContext({
      database: db,
      config: {
        schema: DispatcherConfig,
        env: {
          NODE_ENV: 'test',
          DATABASE_URL: db.database.url,
          INTERNAL_API_KEYS: 'internal-key-medium-0123456789abcdef',
          SECRETS_ENCRYPTION_KEYS: MEDIUM_SECRETS_KEYS,
          SHUTDOWN_GRACE_MS: '2000',
          STATUS_PUSH_RETRY_BASE_MS: '50',
          STATUS_PUSH_RETRY_MAX_DELAY_MS: '200',
        },
      },
      imports: [AccountDirectoryModule, AvailabilityModule, CatalogChangesModule],
      overrides: [
        { token: PlatformAdapters, value: adapters },
        { token: PlatformCallBudgets, value: budgets },
      ],
    });
    sut = ctx.get(CatalogChangesService);
    commands = ctx.get(AvailabilityRepository);
  });
  afterAll(async () => {
    try {
      await ctx?.close();
    } finally {
      await db?.close();
    }
  });

  const newRestaurant = () => `rest_${randomBytes(18).toString('base64url')}`;
  const newCode = () => `CODE-${randomBytes(4).toString('hex')}`;

  /** An integration of `platform` in the account directory, as integration.upserted stores it (secrets sealed). */
  async function integrationOf(restaurantId: string, platform: string, facts: { verified?: boolean; isActive?: boolean } = {}): Promise<string> {
    const integrationId = randomUUID();
    const now = new Date().toISOString();
    const event: IntegrationUpsertedEvent = {
      integrationId,
      restaurantId,
      platform,
      providerRestaurantId: `store-${randomBytes(4).toString('hex')}`,
      isActive: facts.isActive ?? true,
      verification: facts.verified === false ? 'unverified' : 'verified',
      verifiedAt: facts.verified === false ? null : now,
      settings: {},
      secrets: { apiKey: box.encrypt('medium-key', secretBinding.integrationSecret(integrationId, 'apiKey')) },
      version: 1,
      createdAt: now,
      updatedAt: now,
      occurredAt: now,
    };
    await ctx.get(AccountDirectoryRepository).storeIntegration(event);
    return integrationId;
  }

  async function linked(restaurantId: string, platform: string, productCode: string, options: { price?: number; platformData?: Record<string, unknown> } = {}) {
    const integrationId = await integrationOf(restaurantId, platform);
    const platformProductId = `pp-${randomBytes(4).toString('hex')}`;
    await seedLinkedProduct(db.dataSource, { integrationId, restaurantId, platform, platformProductId, productCode, ...options });
    return { integrationId, platformProductId };
  }

  async function menuProduct(integrationId: string, platformProductId: string) {
    const [row] = await db.sql<{ price: string; status: string }>('SELECT price::text AS price, status FROM catalog_products WHERE integration_id = $1 AND platform_product_id = $2', [integrationId, platformProductId]);
    return row;
  }

  const runCommand = (commandId: string): Promise<TaskOutcome> => ctx.runTask(AVAILABILITY_COMMAND_TASK, { commandId });

  /** Waits until a rescheduled task is due (its time has come). */
  async function waitUntilDue(commandId: string, outcome: TaskOutcome): Promise<void> {
    const at = outcome && 'rescheduleAt' in outcome ? outcome.rescheduleAt : undefined;
    if (!at) throw new Error(`command ${commandId} was not rescheduled: ${JSON.stringify(outcome)}`);
    await waitFor(`command ${commandId}'s task due`, () => Date.now() > at.getTime() || undefined, 10_000, 20);
  }

  /** Runs a rescheduled task once it is due, as the task runner would. */
  async function runWhenDue(commandId: string, outcome: TaskOutcome): Promise<TaskOutcome> {
    await waitUntilDue(commandId, outcome);
    return runCommand(commandId);
  }

  const problemOf = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as ProblemException);

  async function priceCommandsEnded(platform: string, state: string): Promise<number> {
    const metric = await ctx.get(Registry).getSingleMetric('availability_commands_total')!.get();
    return metric.values.find((value) => value.labels.platform === platform && value.labels.kind === 'price' && value.labels.state === state)?.value ?? 0;
  }

  it('a price by code: queued where linked, refused before sending where the platform refuses, not_linked elsewhere; sent, counted and written to the imported menu', async () => {
    const restaurantId = newRestaurant();
    const code = newCode();
    const sync = new ScriptedCatalog();
    const capped = new ScriptedCatalog({ maxPrice: 50 });
    installCatalog(adapters, 'PLATFORM_A', sync);
    installCatalog(adapters, 'PLATFORM_C', capped);
    const a = await linked(restaurantId, 'PLATFORM_A', code, { platformData: { chainProductId: 'chain-7' } });
    const c = await linked(restaurantId, 'PLATFORM_C', code);
    const unlinked = await integrationOf(restaurantId, 'PLATFORM_D');
    await integrationOf(restaurantId, 'PLATFORM_B', { isActive: false });
    const sentBefore = await priceCommandsEnded('PLATFORM_A', 'sent');

    const accepted = await sut.requestPrice(restaurantId, code, { price: 64.9 });

    const byId = Object.fromEntries(accepted.results.map((result) => [result.integrationId, result]));
    expect(accepted.results).toHaveLength(3);
    expect(byId[a.integrationId]).toEqual({ integrationId: a.integrationId, platform: 'PLATFORM_A', platformProductId: a.platformProductId, state: 'queued', commandId: expect.any(String) });
    expect(byId[c.integrationId]).toEqual({ integrationId: c.integrationId, platform: 'PLATFORM_C', platformProductId: c.platformProductId, state: 'refused', code: 'PRICE_OUT_OF_RANGE', message: 'the platform takes prices up to 50' });
    expect(byId[unlinked]).toMatchObject({ platform: 'PLATFORM_D', platformProductId: null, state: 'not_linked', code: 'PRODUCT_NOT_LINKED' });
    // planPrice saw the product as imported.
    expect(sync.plannedWith.at(-1)).toMatchObject({ platformProductId: a.platformProductId, name: 'Lahmacun', price: 60, status: 'ACTIVE', externalCode: code, platformData: { chainProductId: 'chain-7' } });
    const rows = await db.sql<{ integration_id: string; kind: string; target: string; product_code: string; request: unknown; params: unknown }>(
      'SELECT integration_id, kind, target, product_code, request, params FROM availability_commands WHERE change_id = $1',
      [accepted.changeId],
    );
    expect(rows).toEqual([{ integration_id: a.integrationId, kind: 'price', target: a.platformProductId, product_code: code, request: { platformProductId: a.platformProductId, price: 64.9, productCode: code }, params: { priceInCents: 6490, chainProductId: 'chain-7' } }]);

    expect(await runCommand(byId[a.integrationId].commandId!)).toBeUndefined();

    expect(sync.callsOf(a.integrationId)).toEqual([expect.objectContaining({ kind: 'set', change: { platformProductId: a.platformProductId, price: 64.9 }, params: { priceInCents: 6490, chainProductId: 'chain-7' } })]);
    expect(capped.calls).toEqual([]);
    expect(await menuProduct(a.integrationId, a.platformProductId)).toEqual({ price: '64.90', status: 'ACTIVE' });
    expect(await menuProduct(c.integrationId, c.platformProductId)).toEqual({ price: '60.00', status: 'ACTIVE' });
    expect(await priceCommandsEnded('PLATFORM_A', 'sent')).toBe(sentBefore + 1);

    const view = await sut.change(restaurantId, accepted.changeId);
    expect(view).toMatchObject({ changeId: accepted.changeId, productCode: code, kind: 'price', request: { price: 64.9 } });
    const viewOf = Object.fromEntries(view.integrations.map((entry) => [entry.integrationId, entry]));
    expect(viewOf[a.integrationId]).toMatchObject({ state: 'sent', attempts: 1, nextAt: null, sentAt: expect.any(String), lastError: null, lastAnswer: { outcome: 'done', httpStatus: 200 } });
    expect(viewOf[c.integrationId]).toMatchObject({ state: 'refused', code: 'PRICE_OUT_OF_RANGE', commandId: null, attempts: 0, lastAnswer: null });
    expect(viewOf[unlinked]).toMatchObject({ state: 'not_linked', platformProductId: null, commandId: null });
  });

  it('an asynchronous price: pending → checking with the follow-up stored, pending again, then done → sent and written to the menu', async () => {
    const restaurantId = newRestaurant();
    const code = newCode();
    const batches = new ScriptedCatalog({ asynchronous: true });
    installCatalog(adapters, 'PLATFORM_C', batches);
    const c = await linked(restaurantId, 'PLATFORM_C', code);
    batches.answerSetWith({ kind: 'pending', answer: { httpStatus: 200, body: { batchRequestId: 'b-1' } }, followUp: { batchRequestId: 'b-1' }, checkAfterMs: 0 });
    batches.answerCheckWith(
      { kind: 'pending', answer: { httpStatus: 200, body: { status: 'IN_PROGRESS' } }, followUp: { batchRequestId: 'b-1', page: 2 }, checkAfterMs: 0 },
      { kind: 'done', answer: { httpStatus: 200, body: { status: 'COMPLETED', items: [{ status: 'SUCCESS' }] } } },
    );
    const accepted = await sut.requestPrice(restaurantId, code, { price: 72.5 });
    const commandId = accepted.results[0].commandId!;

    const first = await runCommand(commandId);

    const checking = await commands.command(commandId);
    expect(checking).toMatchObject({ state: 'checking', attempts: 1, followUp: { batchRequestId: 'b-1' }, sendingUntil: null, lastAnswer: { outcome: 'pending', body: { batchRequestId: 'b-1' } } });
    expect(first).toEqual({ rescheduleAt: checking!.notBefore });
    expect(await menuProduct(c.integrationId, c.platformProductId)).toMatchObject({ price: '60.00' });
    expect((await sut.change(restaurantId, accepted.changeId)).integrations[0]).toMatchObject({ state: 'checking', nextAt: checking!.notBefore.toISOString(), sentAt: null });

    const second = await runWhenDue(commandId, first);
    expect(await commands.command(commandId)).toMatchObject({ state: 'checking', attempts: 2, followUp: { batchRequestId: 'b-1', page: 2 }, lastAnswer: { outcome: 'pending', body: { status: 'IN_PROGRESS' } } });

    expect(await runWhenDue(commandId, second)).toBeUndefined();

    expect(await commands.command(commandId)).toMatchObject({ state: 'sent', attempts: 3, lastError: null, lastAnswer: { outcome: 'done', body: { status: 'COMPLETED' } } });
    expect(batches.callsOf(c.integrationId).map((call) => [call.kind, call.followUp])).toEqual([
      ['set', undefined],
      ['check', { batchRequestId: 'b-1' }],
      ['check', { batchRequestId: 'b-1', page: 2 }],
    ]);
    expect(await menuProduct(c.integrationId, c.platformProductId)).toMatchObject({ price: '72.50' });
  });

  it('a price books catalog:price and each check catalog:check; a check with no room waits for its slot, still checking, no attempt counted', async () => {
    const restaurantId = newRestaurant();
    const code = newCode();
    const batches = new ScriptedCatalog({ asynchronous: true });
    installCatalog(adapters, 'PLATFORM_C', batches);
    const c = await linked(restaurantId, 'PLATFORM_C', code);
    batches.answerSetWith({ kind: 'pending', answer: { httpStatus: 200, body: { batchRequestId: 'b-3' } }, followUp: { batchRequestId: 'b-3' }, checkAfterMs: 0 });
    const commandId = (await sut.requestPrice(restaurantId, code, { price: 33 })).results[0].commandId!;
    const sent = await runCommand(commandId);
    expect(await commands.command(commandId)).toMatchObject({ state: 'checking', attempts: 1 });

    await waitUntilDue(commandId, sent);
    const slot = Date.now() + 1_000;
    budgets.slots.push(slot);
    const waiting = await runCommand(commandId);

    expect(waiting).toEqual({ rescheduleAt: new Date(slot) });
    expect(await commands.command(commandId)).toMatchObject({ state: 'checking', attempts: 1, budgetSlotAt: new Date(slot), notBefore: new Date(slot), sendingUntil: null, followUp: { batchRequestId: 'b-3' } });
    expect(batches.callsOf(c.integrationId).map((call) => call.kind)).toEqual(['set']);

    // At its slot the check goes on the slot it booked, without booking again.
    expect(await runWhenDue(commandId, waiting)).toBeUndefined();
    expect(await commands.command(commandId)).toMatchObject({ state: 'sent', attempts: 2 });
    expect(batches.callsOf(c.integrationId).map((call) => call.kind)).toEqual(['set', 'check']);
    expect(budgets.booked.filter((booking) => booking.integrationId === c.integrationId).map((booking) => booking.call)).toEqual(['catalog:price', 'catalog:check']);
  });

  it('an asynchronous price whose batch item fails: checking → failed with the platform\'s reason; the menu keeps its price', async () => {
    const restaurantId = newRestaurant();
    const code = newCode();
    const batches = new ScriptedCatalog({ asynchronous: true });
    installCatalog(adapters, 'PLATFORM_C', batches);
    const c = await linked(restaurantId, 'PLATFORM_C', code);
    batches.answerSetWith({ kind: 'pending', answer: { httpStatus: 200, body: { batchRequestId: 'b-2' } }, followUp: { batchRequestId: 'b-2' }, checkAfterMs: 0 });
    batches.answerCheckWith({ kind: 'failed', answer: { httpStatus: 200, body: { items: [{ status: 'FAILED', failureReasons: ['price is lower than allowed'] }] } }, reason: 'batch item failed: price is lower than allowed' });
    const failedBefore = await priceCommandsEnded('PLATFORM_C', 'failed');
    const accepted = await sut.requestPrice(restaurantId, code, { price: 1.5 });
    const commandId = accepted.results[0].commandId!;

    expect(await runWhenDue(commandId, await runCommand(commandId))).toBeUndefined();

    expect(await commands.command(commandId)).toMatchObject({ state: 'failed', lastError: 'batch item failed: price is lower than allowed', lastAnswer: { outcome: 'failed', body: { items: [{ status: 'FAILED' }] } }, sentAt: null });
    expect(await menuProduct(c.integrationId, c.platformProductId)).toMatchObject({ price: '60.00' });
    expect(await priceCommandsEnded('PLATFORM_C', 'failed')).toBe(failedBefore + 1);
    expect((await sut.change(restaurantId, accepted.changeId)).integrations[0]).toMatchObject({ state: 'failed', lastError: 'batch item failed: price is lower than allowed', endedAt: expect.any(String) });
  });

  it('a 429 is retried with backoff (retrying, then sent on the next attempt)', async () => {
    const restaurantId = newRestaurant();
    const code = newCode();
    const sync = new ScriptedCatalog();
    installCatalog(adapters, 'PLATFORM_A', sync);
    const a = await linked(restaurantId, 'PLATFORM_A', code);
    sync.answerSetWith({ kind: 'retry', answer: { httpStatus: 429, body: { message: 'Too Many Requests' } }, retryAfterMs: 100 });
    const accepted = await sut.requestPrice(restaurantId, code, { price: 61 });
    const commandId = accepted.results[0].commandId!;

    const first = await runCommand(commandId);
    const retrying = await commands.command(commandId);
    expect(retrying).toMatchObject({ state: 'retrying', attempts: 1, lastAnswer: { outcome: 'retry', httpStatus: 429 } });
    expect(retrying!.notBefore.getTime() - retrying!.lastAttemptAt!.getTime()).toBeGreaterThanOrEqual(100);
    expect((await sut.change(restaurantId, accepted.changeId)).integrations[0]).toMatchObject({ state: 'retrying', nextAt: retrying!.notBefore.toISOString() });

    expect(await runWhenDue(commandId, first)).toBeUndefined();
    expect(await commands.command(commandId)).toMatchObject({ state: 'sent', attempts: 2 });
    expect(sync.callsOf(a.integrationId)).toHaveLength(2);
    expect(await menuProduct(a.integrationId, a.platformProductId)).toMatchObject({ price: '61.00' });
  });

  it('a newer price while one is checking: the checking one is kept (it was sent), the newer one is sent at once, and the menu ends at the newer price', async () => {
    const restaurantId = newRestaurant();
    const code = newCode();
    const batches = new ScriptedCatalog({ asynchronous: true });
    installCatalog(adapters, 'PLATFORM_C', batches);
    const c = await linked(restaurantId, 'PLATFORM_C', code);
    batches.answerSetWith({ kind: 'pending', answer: { httpStatus: 200, body: { batchRequestId: 'b-old' } }, followUp: { batchRequestId: 'b-old' }, checkAfterMs: 0 }, { kind: 'done', answer: { httpStatus: 200, body: {} } });
    const older = (await sut.requestPrice(restaurantId, code, { price: 70 })).results[0].commandId!;
    const olderRun = await runCommand(older);
    expect(await commands.command(older)).toMatchObject({ state: 'checking' });

    const newer = (await sut.requestPrice(restaurantId, code, { price: 75 })).results[0].commandId!;
    expect(await commands.command(older)).toMatchObject({ state: 'checking' });
    expect(await runCommand(newer)).toBeUndefined();
    expect(await commands.command(newer)).toMatchObject({ state: 'sent' });
    expect(await menuProduct(c.integrationId, c.platformProductId)).toMatchObject({ price: '75.00' });

    // The older batch finishes last: its price is not written over the newer one.
    expect(await runWhenDue(older, olderRun)).toBeUndefined();
    expect(await commands.command(older)).toMatchObject({ state: 'sent' });
    expect(await menuProduct(c.integrationId, c.platformProductId)).toMatchObject({ price: '75.00' });
  });

  it('a newer price before the older was sent supersedes it (never sent)', async () => {
    const restaurantId = newRestaurant();
    const code = newCode();
    const sync = new ScriptedCatalog();
    installCatalog(adapters, 'PLATFORM_A', sync);
    const a = await linked(restaurantId, 'PLATFORM_A', code);
    const older = await sut.requestPrice(restaurantId, code, { price: 80 });
    const newer = await sut.requestPrice(restaurantId, code, { price: 81 });

    expect(await runCommand(older.results[0].commandId!)).toBeUndefined();
    expect(await runCommand(newer.results[0].commandId!)).toBeUndefined();

    expect((await sut.change(restaurantId, older.changeId)).integrations[0]).toMatchObject({ state: 'superseded', attempts: 0 });
    expect((await sut.change(restaurantId, newer.changeId)).integrations[0]).toMatchObject({ state: 'sent' });
    expect(sync.callsOf(a.integrationId).map((call) => call.change?.price)).toEqual([81]);
  });

  it('a platform without catalog calls is answered unsupported; a product gone from the menu is planned without it', async () => {
    const restaurantId = newRestaurant();
    const code = newCode();
    const strict = new ScriptedCatalog({ requiresMenuProduct: true });
    installCatalog(adapters, 'PLATFORM_A', strict);
    installCatalog(adapters, 'PLATFORM_D', undefined);
    const a = await linked(restaurantId, 'PLATFORM_A', code);
    const d = await linked(restaurantId, 'PLATFORM_D', code);
    await db.sql('UPDATE catalog_products SET removed_at = now() WHERE integration_id = $1', [a.integrationId]);

    const accepted = await sut.requestPrice(restaurantId, code, { price: 10 });

    const byId = Object.fromEntries(accepted.results.map((result) => [result.integrationId, result]));
    expect(byId[a.integrationId]).toMatchObject({ state: 'refused', code: 'PRODUCT_NOT_ON_MENU' });
    expect(strict.plannedWith.at(-1)).toBeNull();
    expect(byId[d.integrationId]).toMatchObject({ state: 'unsupported', code: 'PRICE_UNSUPPORTED' });
    expect(await db.sql('SELECT id FROM availability_commands WHERE change_id = $1', [accepted.changeId])).toEqual([]);
    expect((await sut.change(restaurantId, accepted.changeId)).integrations.map((entry) => entry.state).sort()).toEqual(['refused', 'unsupported']);
  });

  it('sold out by code goes the availability path (product command, back-on timer); sent, it writes INACTIVE to the menu', async () => {
    const restaurantId = newRestaurant();
    const code = newCode();
    const availability = new RecordingAvailability();
    Object.defineProperty(adapters.get('PLATFORM_A')!, 'availability', { value: availability, configurable: true, writable: true });
    const a = await linked(restaurantId, 'PLATFORM_A', code);
    const unverified = await integrationOf(restaurantId, 'PLATFORM_C', { verified: false });
    await seedLinkedProduct(db.dataSource, { integrationId: unverified, restaurantId, platform: 'PLATFORM_C', platformProductId: 'pc-1', productCode: code });
    const until = new Date(Date.now() + 3_600_000).toISOString();

    const accepted = await sut.requestAvailability(restaurantId, code, { available: false, until });

    const byId = Object.fromEntries(accepted.results.map((result) => [result.integrationId, result]));
    expect(byId[a.integrationId]).toMatchObject({ state: 'queued', platformProductId: a.platformProductId });
    expect(byId[unverified]).toMatchObject({ state: 'refused', code: 'INTEGRATION_NOT_VERIFIED', platformProductId: 'pc-1' });
    const [asked] = await db.sql('SELECT available, until, change_id FROM product_availability WHERE integration_id = $1 AND platform_product_id = $2', [a.integrationId, a.platformProductId]);
    expect(asked).toEqual({ available: false, until: new Date(until), change_id: accepted.changeId });
    expect(await db.sql(`SELECT due_at FROM scheduled_tasks WHERE kind = 'availability.product-back' AND payload->>'integrationId' = $1`, [a.integrationId])).toEqual([{ due_at: new Date(until) }]);

    expect(await runCommand(byId[a.integrationId].commandId!)).toBeUndefined();

    expect(availability.calls).toEqual([expect.objectContaining({ kind: 'product', integrationId: a.integrationId, product: { platformProductId: a.platformProductId, available: false, until: new Date(until) } })]);
    expect(await menuProduct(a.integrationId, a.platformProductId)).toMatchObject({ status: 'INACTIVE' });
    const view = await sut.change(restaurantId, accepted.changeId);
    expect(view).toMatchObject({ kind: 'availability', request: { available: false, until } });
    expect(view.integrations.find((entry) => entry.integrationId === a.integrationId)).toMatchObject({ state: 'sent', attempts: 1 });
  });

  it('refuses what cannot be: an unknown code (404), another account\'s change or a malformed id (404), a bad price or code (422); a code without links answers not_linked', async () => {
    const restaurantId = newRestaurant();
    const code = newCode();
    installCatalog(adapters, 'PLATFORM_A', new ScriptedCatalog());
    await linked(restaurantId, 'PLATFORM_A', code);
    const other = newRestaurant();
    const accepted = await sut.requestPrice(restaurantId, code, { price: 5 });

    expect(await problemOf(sut.requestPrice(restaurantId, 'NO-SUCH-CODE', { price: 5 }))).toMatchObject({ code: 'PRODUCT_CODE_NOT_FOUND' });
    expect((await problemOf(sut.requestAvailability(restaurantId, 'NO-SUCH-CODE', { available: false })))!.getStatus()).toBe(404);
    expect(await problemOf(sut.change(other, accepted.changeId))).toMatchObject({ code: 'CATALOG_CHANGE_NOT_FOUND' });
    expect((await problemOf(sut.change(restaurantId, 'not-a-uuid')))!.getStatus()).toBe(404);
    expect(await problemOf(sut.requestPrice(restaurantId, code, { price: 1.005 }))).toMatchObject({ code: 'VALIDATION_ERROR', errors: [{ field: 'price', message: 'must have at most 2 decimals' }] });
    expect(await problemOf(sut.requestPrice(restaurantId, 'x'.repeat(129), { price: 5 }))).toMatchObject({ code: 'VALIDATION_ERROR', errors: [{ field: 'productCode' }] });

    // Known to the catalog (from an order, say) but linked nowhere: every integration says so.
    const known = newCode();
    const integrationId = await integrationOf(other, 'PLATFORM_A');
    await db.sql(`INSERT INTO catalog_codes (restaurant_id, product_code, source, created_at) VALUES ($1, $2, 'order', now())`, [other, known]);
    const unlinked = await sut.requestAvailability(other, known, { available: false });
    expect(unlinked.results).toEqual([expect.objectContaining({ integrationId, state: 'not_linked' })]);
  });
});
