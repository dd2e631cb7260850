import { CATALOG_DRIFT_EVENT_MAX_CHANGES, CatalogDriftDetectedEvent } from '@courier/contracts';
import { ProblemException } from '@courier/http';
import {
  CredentialCheck,
  IntegrationCredentials,
  MenuProduct,
  MenuReadOutcome,
  PlatformAdapter,
  PlatformAdapters,
  PlatformCallOutcome,
  PlatformCatalog,
  platformClientConfig,
} from '@courier/platforms';
import { createMediumDatabase, MediumContext, MediumDatabase, newMediumContext, waitFor } from '@courier/testing';
import { Registry } from 'prom-client';
import type { EntityManager } from 'typeorm';
import { MEDIUM_SECRETS_KEYS, storeIntegration } from '../../test/medium';
import { AccountDirectoryModule } from '../account-directory/account-directory.module';
import { DispatcherConfig } from '../app/status-dispatcher.config';
import { PERSISTENCE } from '../app/persistence';
import { CatalogImportWorker } from './catalog-import.worker';
import { CatalogModule } from './catalog.module';
import { CATALOG_IMPORT_PLANNER_TASK, CATALOG_IMPORT_TASK, CatalogRepository } from './catalog.repository';
import { CatalogService } from './catalog.service';

/**
 * The catalog with its real repositories, worker and service on PostgreSQL; the platforms are
 * doubles of the PlatformCatalog port written here: READER reads each store's menu from `menus`
 * (or answers what `nextAnswers` holds), READER_BUDGETED does the same with one read an hour in its
 * call budget, NO_READ has no menu read.
 */
const READER = 'CATALOG_READER';
const READER_BUDGETED = 'CATALOG_BUDGETED';
const NO_READ = 'CATALOG_NO_READ';

const menus = new Map<string, MenuProduct[]>();
const nextAnswers: Array<Exclude<MenuReadOutcome, { kind: 'ok' }>> = [];
let reads = 0;

const product = (platformProductId: string, name: string, price: number | null, over: Partial<MenuProduct> = {}): MenuProduct => ({
  platformProductId,
  name,
  price,
  category: 'Menü',
  status: 'ACTIVE',
  externalCode: null,
  options: [],
  platformData: { chainProductId: `chain-${platformProductId}` },
  ...over,
});

class MenuDouble implements PlatformCatalog {
  async readMenu(credentials: IntegrationCredentials): Promise<MenuReadOutcome> {
    reads += 1;
    const answer = nextAnswers.shift();
    if (answer) return answer;
    return { kind: 'ok', products: structuredClone(menus.get(credentials.providerRestaurantId) ?? []), answer: { httpStatus: 200, body: { products: '…' } } };
  }

  planPrice(): never {
    throw new Error('not used by the import');
  }

  setPrice(): never {
    throw new Error('not used by the import');
  }
}

class DoubleAdapter implements PlatformAdapter {
  readonly orders = { acceptBy: () => null, acceptanceWarningMs: 60_000 };
  readonly status = { send: async (): Promise<PlatformCallOutcome> => ({ kind: 'skipped', reason: 'not used' }) };
  constructor(
    readonly code: string,
    readonly catalog: PlatformCatalog,
    readonly callBudget?: PlatformAdapter['callBudget'],
  ) {}
  async checkCredentials(): Promise<CredentialCheck> {
    return { result: 'ok', detail: 'double' };
  }
}

const noRead: PlatformCatalog = {
  menuReadUnsupported: 'The platform\'s API has no menu read; products are switched by the ids its orders carry.',
  planPrice: () => ({ kind: 'refused', code: 'PRICE_UNSUPPORTED', message: 'no' }),
  setPrice: async () => ({ kind: 'skipped', reason: 'no' }),
};

describe('Catalog (medium)', () => {
  let db: MediumDatabase;
  let ctx: MediumContext;
  let service: CatalogService;
  let worker: CatalogImportWorker;
  let repository: CatalogRepository;

  beforeAll(async () => {
    db = await createMediumDatabase('status_dispatcher_catalog', PERSISTENCE);
    const adapters = new PlatformAdapters(platformClientConfig({ PLATFORM_HTTP_TIMEOUT_MS: '2000' }), [
      new DoubleAdapter(READER, new MenuDouble()),
      new DoubleAdapter(READER_BUDGETED, new MenuDouble(), { scopes: [{ name: 'menu', limit: 1, windowMs: 3_600_000, requests: { 'catalog:read': 1 } }] }),
      new DoubleAdapter(NO_READ, noRead),
    ]);
    ctx = await newMediumContext({
      database: db,
      config: {
        schema: DispatcherConfig,
        env: { NODE_ENV: 'test', DATABASE_URL: db.database.url, INTERNAL_API_KEYS: 'internal-key-medium-0123456789abcdef', SECRETS_ENCRYPTION_KEYS: MEDIUM_SECRETS_KEYS, STATUS_PUSH_RETRY_BASE_MS: '1000', CATALOG_IMPORT_INTERVAL_MS: '3600000' },
      },
      imports: [AccountDirectoryModule, CatalogModule],
      overrides: [{ token: PlatformAdapters, value: adapters }],
    });
    service = ctx.get(CatalogService);
    worker = ctx.get(CatalogImportWorker);
    repository = ctx.get(CatalogRepository);
  });
  afterAll(async () => {
    await ctx?.close();
    await db?.close();
  });
  beforeEach(() => {
    nextAnswers.length = 0;
  });

  const problemOf = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as ProblemException);

  /** A verified integration of `platform` whose store serves `menu`. */
  async function integrationWith(platform: string, menu: MenuProduct[], restaurantId?: string) {
    const integration = await storeIntegration(ctx, platform, { apiKey: 'medium-key' });
    if (restaurantId) {
      await db.sql('UPDATE integrations SET restaurant_id = $2 WHERE integration_id = $1', [integration.integrationId, restaurantId]);
      integration.restaurantId = restaurantId;
    }
    menus.set(integration.providerRestaurantId, menu);
    return integration;
  }

  /** Asks an import and runs its task until it ends (the task's outcome of each run is returned last). */
  async function importNow(restaurantId: string, integrationId: string) {
    const accepted = await service.requestImport(restaurantId, integrationId);
    const outcome = await ctx.runTask(CATALOG_IMPORT_TASK, { importId: accepted.importId });
    return { accepted, outcome, view: await service.importView(restaurantId, accepted.importId) };
  }

  const catalogState = (restaurantId: string) =>
    Promise.all([
      db.sql('SELECT integration_id, platform_product_id, name, price, status, removed_at FROM catalog_products WHERE restaurant_id = $1 ORDER BY 1, 2', [restaurantId]),
      db.sql('SELECT integration_id, platform_product_id, product_code, linked_by FROM catalog_links WHERE restaurant_id = $1 ORDER BY 1, 2', [restaurantId]),
      db.sql('SELECT product_code, name, source FROM catalog_codes WHERE restaurant_id = $1 ORDER BY 1', [restaurantId]),
      db.sql('SELECT id FROM catalog_drift WHERE restaurant_id = $1', [restaurantId]),
    ]);

  const driftEvents = (integrationId: string) =>
    db.sql<{ payload: CatalogDriftDetectedEvent }>(`SELECT payload FROM outbox_messages WHERE routing_key = 'catalog.drift_detected' AND payload->>'integrationId' = $1`, [integrationId]);

  it('imports a menu: products stored, products carrying a code linked to it, no drift on the first import', async () => {
    const a = await integrationWith(READER, [
      product('a-1', 'Adana Kebap', 320, { externalCode: 'ADANA-01' }),
      product('a-2', 'Künefe', 150),
      product('a-3', 'Ayran', 35, { externalCode: ' AYRAN-01 ', status: 'INACTIVE' }),
      product('a-1', 'Adana Kebap (listed twice)', 320, { externalCode: 'ADANA-01' }),
    ]);

    const { accepted, outcome, view } = await importNow(a.restaurantId, a.integrationId);

    expect(accepted).toMatchObject({ state: 'queued', alreadyPending: false });
    expect(outcome).toBeUndefined();
    expect(view).toMatchObject({ state: 'done', attempts: 1, requestedBy: 'restaurant', counts: { products: 3, removed: 0, autoLinked: 2, drift: 0 }, lastAnswer: { outcome: 'done', httpStatus: 200, body: null }, lastError: null });
    const [products, links, codes, drift] = await catalogState(a.restaurantId);
    expect(products).toEqual([
      expect.objectContaining({ platform_product_id: 'a-1', name: 'Adana Kebap', price: '320.00', status: 'ACTIVE', removed_at: null }),
      expect.objectContaining({ platform_product_id: 'a-2', name: 'Künefe', price: '150.00' }),
      expect.objectContaining({ platform_product_id: 'a-3', name: 'Ayran', status: 'INACTIVE' }),
    ]);
    expect(links).toEqual([
      expect.objectContaining({ platform_product_id: 'a-1', product_code: 'ADANA-01', linked_by: 'external_code' }),
      expect.objectContaining({ platform_product_id: 'a-3', product_code: 'AYRAN-01', linked_by: 'external_code' }),
    ]);
    expect(codes).toEqual([
      { product_code: 'ADANA-01', name: 'Adana Kebap', source: 'external_code' },
      { product_code: 'AYRAN-01', name: 'Ayran', source: 'external_code' },
    ]);
    expect(drift).toEqual([]);
    expect(await driftEvents(a.integrationId)).toEqual([]);
    const [stored] = await db.sql<{ name_key: string; platform_data: unknown }>(`SELECT name_key, platform_data FROM catalog_products WHERE integration_id = $1 AND platform_product_id = 'a-2'`, [a.integrationId]);
    expect(stored).toEqual({ name_key: 'kunefe', platform_data: { chainProductId: 'chain-a-2' } });
  });

  it('answers an import already queued instead of queueing a second one, and the schedule adds none for it', async () => {
    const a = await integrationWith(READER, [product('q-1', 'Lahmacun', 90)]);
    const first = await service.requestImport(a.restaurantId, a.integrationId);
    const again = await service.requestImport(a.restaurantId, a.integrationId);
    await service.queueScheduledImports(3_600_000);

    expect(again).toEqual({ ...first, alreadyPending: true });
    expect(await db.sql('SELECT id FROM catalog_imports WHERE integration_id = $1', [a.integrationId])).toEqual([{ id: first.importId }]);
    expect(await db.sql('SELECT id FROM scheduled_tasks WHERE dedupe_key = $1', [`catalog-import:${first.importId}`])).toHaveLength(1);
    await ctx.runTask(CATALOG_IMPORT_TASK, { importId: first.importId });
    // Done: a new request is a new import.
    const next = await service.requestImport(a.restaurantId, a.integrationId);
    expect(next.importId).not.toBe(first.importId);
    await ctx.runTask(CATALOG_IMPORT_TASK, { importId: next.importId });
  });

  it('schedules one import per readable, active, verified integration whose last import is older than the interval, even from two replicas at once', async () => {
    await db.sql(`UPDATE catalog_imports SET requested_at = requested_at - interval '2 hours' WHERE state IN ('done', 'failed')`);
    const fresh = await integrationWith(READER, [product('s-1', 'Ayran', 35)]);
    const recent = await integrationWith(READER, [product('s-2', 'Ayran', 35)]);
    await importNow(recent.restaurantId, recent.integrationId);
    const unverified = await integrationWith(READER, []);
    await db.sql(`UPDATE integrations SET verification = 'unverified' WHERE integration_id = $1`, [unverified.integrationId]);
    const inactive = await integrationWith(READER, []);
    await db.sql('UPDATE integrations SET is_active = false WHERE integration_id = $1', [inactive.integrationId]);
    const unreadable = await integrationWith(NO_READ, []);

    const [one, two] = await Promise.all([service.queueScheduledImports(3_600_000), service.queueScheduledImports(3_600_000)]);

    const queued = await db.sql<{ id: string; integration_id: string; requested_by: string }>(`SELECT id, integration_id, requested_by FROM catalog_imports WHERE state = 'queued'`);
    const ids = queued.map((row) => row.integration_id);
    expect(ids).toContain(fresh.integrationId);
    expect(ids).not.toContain(recent.integrationId);
    expect(ids).not.toContain(unverified.integrationId);
    expect(ids).not.toContain(inactive.integrationId);
    expect(ids).not.toContain(unreadable.integrationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(one + two).toBe(ids.length);
    expect(queued.every((row) => row.requested_by === 'schedule')).toBe(true);
    const tasks = await db.sql(`SELECT id FROM scheduled_tasks WHERE kind = $1 AND payload->>'importId' = ANY($2::text[])`, [CATALOG_IMPORT_TASK, queued.map((row) => row.id)]);
    expect(tasks).toHaveLength(ids.length);
    // The planner task queues the same way and comes back within the interval.
    const planned = await ctx.runTask(CATALOG_IMPORT_PLANNER_TASK, {});
    expect(planned).toMatchObject({ rescheduleAt: expect.any(Date) });
    for (const row of queued) await worker.run(row.id);
  });

  it('proposes codes by normalised name, and links set by hand: confirmed when the proposal, manual otherwise, a product moving between codes', async () => {
    const a = await integrationWith(READER, [product('pa-1', 'Adana Kebap', 320, { externalCode: 'ADANA-01' }), product('pa-2', 'Künefe', 150)]);
    const b = await integrationWith(READER, [product('pb-1', 'ADANA KEBAP', 330), product('pb-2', 'KÜNEFE', 155), product('pb-3', 'Şalgam', 40)], a.restaurantId);
    await importNow(a.restaurantId, a.integrationId);
    await importNow(a.restaurantId, b.integrationId);
    // A product seen only in an order (what the order-items side records).
    await db.sql(`INSERT INTO catalog_order_products (integration_id, platform_product_id, restaurant_id, platform, name, orders, first_seen_at, last_seen_at) VALUES ($1, 'pb-9', $2, $3, 'Kaşarlı Pide', 2, now(), now())`, [b.integrationId, a.restaurantId, READER]);

    // By integration, then name.
    const before = await service.unmapped(a.restaurantId);
    const ofA = [['pa-2', true, 0, null]];
    const ofB = [
      ['pb-1', true, 0, 'ADANA-01'],
      ['pb-9', false, 2, null],
      ['pb-2', true, 0, null],
      ['pb-3', true, 0, null],
    ];
    expect(before.products.map((p) => [p.platformProductId, p.onMenu, p.seenInOrders, p.proposedProductCode])).toEqual(a.integrationId < b.integrationId ? [...ofA, ...ofB] : [...ofB, ...ofA]);

    // A code set by hand for A's Künefe: nothing proposed it, so the link is manual.
    const kunefe = await service.setLinks(a.restaurantId, 'KUNEFE-01', { links: [{ integrationId: a.integrationId, platformProductId: 'pa-2' }] });
    expect(kunefe).toMatchObject({ productCode: 'KUNEFE-01', name: 'Künefe', source: 'manual' });
    expect(kunefe.integrations.find((i) => i.integrationId === a.integrationId)!.linked).toMatchObject({ platformProductId: 'pa-2', linkedBy: 'manual', price: 150 });
    expect(kunefe.integrations.find((i) => i.integrationId === b.integrationId)!.linked).toBeNull();

    // B's KÜNEFE is now proposed KUNEFE-01 (through A's product); confirming it records `confirmed`.
    expect((await service.unmapped(a.restaurantId)).products.find((p) => p.platformProductId === 'pb-2')!.proposedProductCode).toBe('KUNEFE-01');
    const confirmed = await service.setLinks(a.restaurantId, 'KUNEFE-01', { links: [{ integrationId: b.integrationId, platformProductId: 'pb-2' }] });
    const linkOn = (integrationId: string) => confirmed.integrations.find((i) => i.integrationId === integrationId)!.linked;
    expect([linkOn(a.integrationId), linkOn(b.integrationId)]).toEqual([expect.objectContaining({ platformProductId: 'pa-2', linkedBy: 'manual' }), expect.objectContaining({ platformProductId: 'pb-2', linkedBy: 'confirmed' })]);

    // A product of orders only can be linked; a name given names the code.
    await service.setLinks(a.restaurantId, 'PIDE-KAS-01', { links: [{ integrationId: b.integrationId, platformProductId: 'pb-9' }], name: 'Kaşarlı Pide' });
    // pb-3 moves from one code to another; the first code keeps no product on B.
    await service.setLinks(a.restaurantId, 'SALGAM-01', { links: [{ integrationId: b.integrationId, platformProductId: 'pb-3' }] });
    await service.setLinks(a.restaurantId, 'SALGAM-02', { links: [{ integrationId: b.integrationId, platformProductId: 'pb-3' }] });

    const view = await service.view(a.restaurantId);
    const on = (code: string, integrationId: string) => view.products.find((p) => p.productCode === code)!.integrations.find((i) => i.integrationId === integrationId)!.linked;
    expect(view.products.map((p) => p.productCode)).toEqual(['ADANA-01', 'KUNEFE-01', 'PIDE-KAS-01', 'SALGAM-01', 'SALGAM-02']);
    expect(on('ADANA-01', a.integrationId)).toMatchObject({ platformProductId: 'pa-1', linkedBy: 'external_code', name: 'Adana Kebap', price: 320, status: 'ACTIVE', removedAt: null });
    expect(on('ADANA-01', b.integrationId)).toBeNull();
    expect(on('PIDE-KAS-01', b.integrationId)).toMatchObject({ platformProductId: 'pb-9', name: 'Kaşarlı Pide', price: null, status: null });
    expect(on('SALGAM-01', b.integrationId)).toBeNull();
    expect(on('SALGAM-02', b.integrationId)).toMatchObject({ platformProductId: 'pb-3', linkedBy: 'manual' });
    expect((await service.unmapped(a.restaurantId)).products.map((p) => p.platformProductId)).toEqual(['pb-1']);

    // null unlinks the code on that integration only.
    await service.setLinks(a.restaurantId, 'KUNEFE-01', { links: [{ integrationId: b.integrationId, platformProductId: null }] });
    const after = await service.view(a.restaurantId);
    const kunefeAfter = after.products.find((p) => p.productCode === 'KUNEFE-01')!;
    expect(kunefeAfter.integrations.find((i) => i.integrationId === a.integrationId)!.linked).toMatchObject({ platformProductId: 'pa-2' });
    expect(kunefeAfter.integrations.find((i) => i.integrationId === b.integrationId)!.linked).toBeNull();
  });

  /**
   * The seam of the race between PUT .../links and an import: `compete(db)` runs right before
   * setLink's INSERT of the link (after its DELETE), on the first `times` calls of setLink.
   */
  /** Statements committed on their own, outside the service's transaction. */
  const otherConnection = () => ({ query: (text: string, params?: unknown[]) => db.sql(text, params) }) as unknown as Pick<EntityManager, 'query'>;

  function competeBeforeLinkInsert(times: number, compete: (tx: Pick<EntityManager, 'query'>) => Promise<unknown>): jest.SpyInstance {
    const setLink = CatalogRepository.prototype.setLink;
    let calls = 0;
    return jest.spyOn(repository, 'setLink').mockImplementation(async (tx, link) => {
      calls += 1;
      const racing = calls <= times;
      const seam = {
        query: async (text: string, params?: unknown[]) => {
          if (racing && text.trimStart().startsWith('INSERT INTO catalog_links')) await compete(tx);
          return tx.query(text, params);
        },
      };
      return setLink.call(repository, seam, link);
    });
  }

  it('retries once when an import links the same code on the integration between its delete and insert: the restaurant\'s link wins, no 500', async () => {
    const a = await integrationWith(READER, [product('x-1', 'Lahmacun', 90), product('x-2', 'Lahmacun Büyük', 120)]);
    await importNow(a.restaurantId, a.integrationId);
    // The code exists already (set by hand earlier, linked nowhere): the import only adds the link.
    await service.setLinks(a.restaurantId, 'LAHMACUN-01', { links: [{ integrationId: a.integrationId, platformProductId: null }] });
    // The import's own statement, committed on another connection while the request's transaction is between its two writes.
    const importLinks = () => repository.insertAutoLinks(otherConnection(), a, [{ platformProductId: 'x-2', productCode: 'LAHMACUN-01', name: 'Lahmacun Büyük', nameKey: 'lahmacun buyuk' }], new Date());
    const spy = competeBeforeLinkInsert(1, importLinks);
    try {
      const linked = await service.setLinks(a.restaurantId, 'LAHMACUN-01', { links: [{ integrationId: a.integrationId, platformProductId: 'x-1' }] });
      expect(linked.integrations[0].linked).toMatchObject({ platformProductId: 'x-1', linkedBy: 'manual' });
      expect(spy).toHaveBeenCalledTimes(2);
    } finally {
      spy.mockRestore();
    }
    const [, links] = await catalogState(a.restaurantId);
    expect(links).toEqual([expect.objectContaining({ platform_product_id: 'x-1', product_code: 'LAHMACUN-01', linked_by: 'manual' })]);
  });

  it('answers 409 CATALOG_LINK_CONFLICT when the same code is linked under it again on the retry, and keeps what was there', async () => {
    const a = await integrationWith(READER, [product('y-1', 'Ayran', 35), product('y-2', 'Ayran Büyük', 45)]);
    await importNow(a.restaurantId, a.integrationId);
    await service.setLinks(a.restaurantId, 'AYRAN-01', { links: [{ integrationId: a.integrationId, platformProductId: null }] });
    // Both attempts meet a link of the code to y-2 made just before their insert (the retry's in its own transaction: the first competitor's row is deleted, uncommitted, by then).
    let attempt = 0;
    const spy = competeBeforeLinkInsert(2, (tx) => {
      attempt += 1;
      const on = attempt === 1 ? otherConnection() : tx;
      return repository.insertAutoLinks(on, a, [{ platformProductId: 'y-2', productCode: 'AYRAN-01', name: 'Ayran Büyük', nameKey: 'ayran buyuk' }], new Date());
    });
    try {
      const conflict = await problemOf(service.setLinks(a.restaurantId, 'AYRAN-01', { links: [{ integrationId: a.integrationId, platformProductId: 'y-1' }] }));
      expect([conflict!.getStatus(), conflict!.code]).toEqual([409, 'CATALOG_LINK_CONFLICT']);
      expect(spy).toHaveBeenCalledTimes(2);
    } finally {
      spy.mockRestore();
    }
    // The retry rolled back; the import's committed link stays.
    const [, links] = await catalogState(a.restaurantId);
    expect(links).toEqual([expect.objectContaining({ platform_product_id: 'y-2', product_code: 'AYRAN-01', linked_by: 'external_code' })]);
  });

  it('does not deadlock when an import auto-links a code the request is creating at that moment: the import waits, then leaves the request\'s link', async () => {
    const a = await integrationWith(READER, [product('z-1', 'Şalgam', 40), product('z-2', 'Şalgam Acılı', 42)]);
    await importNow(a.restaurantId, a.integrationId);
    // The import's transaction, on a connection of its own.
    const runner = db.dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    const [{ pid }] = await runner.query('SELECT pg_backend_pid() AS pid');
    let importLinks: Promise<number> | undefined;
    // Between the request's delete and insert (its new code uncommitted), the import's statement runs until it waits on a lock.
    const spy = competeBeforeLinkInsert(1, async () => {
      importLinks = repository.insertAutoLinks(runner.manager, a, [{ platformProductId: 'z-2', productCode: 'SALGAM-01', name: 'Şalgam Acılı', nameKey: 'salgam acili' }], new Date());
      importLinks.catch(() => undefined);
      await waitFor('the import waiting on a lock', async () => (await db.sql<{ waiting: boolean }>(`SELECT wait_event_type = 'Lock' AS waiting FROM pg_stat_activity WHERE pid = $1`, [pid]))[0]?.waiting);
    });
    try {
      const linked = await service.setLinks(a.restaurantId, 'SALGAM-01', { links: [{ integrationId: a.integrationId, platformProductId: 'z-1' }] });
      expect(linked.integrations[0].linked).toMatchObject({ platformProductId: 'z-1', linkedBy: 'manual' });
      // The import found the code linked on the integration when it could go on: it linked nothing.
      expect(await importLinks).toBe(0);
      await runner.commitTransaction();
    } finally {
      spy.mockRestore();
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      await runner.release();
    }
    const [, links, codes] = await catalogState(a.restaurantId);
    expect(links).toEqual([expect.objectContaining({ platform_product_id: 'z-1', product_code: 'SALGAM-01', linked_by: 'manual' })]);
    expect(codes).toEqual([{ product_code: 'SALGAM-01', name: 'Şalgam', source: 'manual' }]);
  });

  it('refuses links it cannot set, and changes nothing', async () => {
    const a = await integrationWith(READER, [product('r-1', 'Urfa Kebap', 310)]);
    const other = await integrationWith(READER, [product('r-9', 'Urfa Kebap', 310)]);
    await importNow(a.restaurantId, a.integrationId);
    const before = await catalogState(a.restaurantId);

    const unknownProduct = await problemOf(service.setLinks(a.restaurantId, 'URFA-01', { links: [{ integrationId: a.integrationId, platformProductId: 'r-404' }] }));
    expect([unknownProduct!.getStatus(), unknownProduct!.code, unknownProduct!.errors]).toEqual([404, 'PRODUCT_NOT_FOUND', [{ field: 'links[0].platformProductId', message: expect.any(String) }]]);
    const foreign = await problemOf(service.setLinks(a.restaurantId, 'URFA-01', { links: [{ integrationId: other.integrationId, platformProductId: 'r-9' }] }));
    expect([foreign!.getStatus(), foreign!.code]).toEqual([404, 'INTEGRATION_NOT_FOUND']);
    const twice = await problemOf(service.setLinks(a.restaurantId, 'URFA-01', { links: [{ integrationId: a.integrationId, platformProductId: 'r-1' }, { integrationId: a.integrationId, platformProductId: null }] }));
    expect([twice!.getStatus(), twice!.code, twice!.errors![0].field]).toEqual([422, 'VALIDATION_ERROR', 'links[1].integrationId']);
    for (const code of ['', ' URFA', 'U\u200bRFA', 'x'.repeat(65)]) {
      const bad = await problemOf(service.setLinks(a.restaurantId, code, { links: [] }));
      expect([bad!.getStatus(), bad!.code, bad!.errors![0].field]).toEqual([422, 'VALIDATION_ERROR', 'productCode']);
    }
    // A product removed from the menu is unknown (not on the menu, not in orders).
    menus.set(a.providerRestaurantId, []);
    await importNow(a.restaurantId, a.integrationId);
    const removed = await problemOf(service.setLinks(a.restaurantId, 'URFA-01', { links: [{ integrationId: a.integrationId, platformProductId: 'r-1' }] }));
    expect(removed!.code).toBe('PRODUCT_NOT_FOUND');
    const [, links, codes] = await catalogState(a.restaurantId);
    expect([links, codes]).toEqual([before[1], before[2]]);
  });

  it('records the drift of a re-import (price, name, status, added, removed, linked product removed) with exactly one event, and keeps a manual link over a code', async () => {
    const a = await integrationWith(READER, [
      product('d-1', 'Adana Kebap', 320, { externalCode: 'ADANA-01' }),
      product('d-2', 'Urfa Kebap', 310, { externalCode: 'URFA-01' }),
      product('d-3', 'Ayran', 35),
      product('d-4', 'Lahmacun', 90),
    ]);
    await importNow(a.restaurantId, a.integrationId);
    // The restaurant links d-4 by hand to a code another product will carry.
    await service.setLinks(a.restaurantId, 'LAHMACUN-01', { links: [{ integrationId: a.integrationId, platformProductId: 'd-4' }] });
    menus.set(a.providerRestaurantId, [
      product('d-1', 'Adana Kebap Porsiyon', 340, { externalCode: 'ADANA-01', status: 'INACTIVE' }),
      product('d-4', 'Lahmacun', 90, { externalCode: 'LAHMACUN-99' }),
      product('d-5', 'Künefe', 150),
    ]);

    const { view } = await importNow(a.restaurantId, a.integrationId);

    expect(view).toMatchObject({ state: 'done', counts: { products: 3, removed: 2, autoLinked: 0, drift: 6 } });
    const drift = await service.drift(a.restaurantId, {});
    expect(drift.drift.map((d) => [d.platformProductId, d.kind, d.productCode, d.before, d.after])).toEqual([
      ['d-1', 'price', 'ADANA-01', 320, 340],
      ['d-1', 'name', 'ADANA-01', 'Adana Kebap', 'Adana Kebap Porsiyon'],
      ['d-1', 'status', 'ADANA-01', 'ACTIVE', 'INACTIVE'],
      ['d-2', 'linked_removed', 'URFA-01', null, null],
      ['d-3', 'removed', null, null, null],
      ['d-5', 'added', null, null, null],
    ]);
    const events = await driftEvents(a.integrationId);
    expect(events).toHaveLength(1);
    const [{ drift_event_id }] = await db.sql<{ drift_event_id: string }>('SELECT drift_event_id FROM catalog_imports WHERE id = $1', [view.importId]);
    expect(events[0].payload).toMatchObject({ driftEventId: drift_event_id, importId: view.importId, restaurantId: a.restaurantId, provider: READER, providerRestaurantId: a.providerRestaurantId });
    expect(events[0].payload.changes).toHaveLength(6);
    expect(events[0].payload.omittedChanges).toBe(0);
    const [products, links] = await catalogState(a.restaurantId);
    expect(products.filter((p) => p.removed_at !== null).map((p) => p.platform_product_id)).toEqual(['d-2', 'd-3']);
    expect(links.find((l) => l.platform_product_id === 'd-4')).toMatchObject({ product_code: 'LAHMACUN-01', linked_by: 'manual' });
    const metrics = await ctx.get(Registry).getSingleMetricAsString('catalog_drift_total');
    expect(metrics).toContain(`catalog_drift_total{platform="${READER}",kind="linked_removed"} 1`);

    // The same menu again: no drift, no event; a product back on the menu is added again.
    await importNow(a.restaurantId, a.integrationId);
    expect(await driftEvents(a.integrationId)).toHaveLength(1);
    menus.set(a.providerRestaurantId, [...menus.get(a.providerRestaurantId)!, product('d-3', 'Ayran', 35)]);
    const back = await importNow(a.restaurantId, a.integrationId);
    expect(back.view.counts).toMatchObject({ drift: 1 });
    expect((await service.drift(a.restaurantId, { limit: 1 })).drift).toEqual([expect.objectContaining({ platformProductId: 'd-3', kind: 'added', importId: back.view.importId })]);
    expect((await service.drift(a.restaurantId, { since: new Date(Date.now() + 1000).toISOString() })).drift).toEqual([]);
  });

  it('lists at most CATALOG_DRIFT_EVENT_MAX_CHANGES changes in the event and says how many more; the drift view has all', async () => {
    const count = CATALOG_DRIFT_EVENT_MAX_CHANGES + 25;
    const a = await integrationWith(READER, []);
    await importNow(a.restaurantId, a.integrationId);
    menus.set(a.providerRestaurantId, Array.from({ length: count }, (_, index) => product(`m-${index}`, `Menu item ${index}`, 10 + index)));

    const { view } = await importNow(a.restaurantId, a.integrationId);

    expect(view.counts).toMatchObject({ products: count, drift: count });
    const events = await driftEvents(a.integrationId);
    expect(events).toHaveLength(1);
    expect(events[0].payload.changes).toHaveLength(CATALOG_DRIFT_EVENT_MAX_CHANGES);
    expect(events[0].payload.omittedChanges).toBe(25);
    const [, , , drift] = await catalogState(a.restaurantId);
    expect(drift).toHaveLength(count);
  });

  it('reads again after a retry answer, and a failed import changes nothing stored', async () => {
    const a = await integrationWith(READER, [product('f-1', 'Adana Kebap', 320, { externalCode: 'ADANA-01' })]);
    await importNow(a.restaurantId, a.integrationId);
    const before = await catalogState(a.restaurantId);
    menus.set(a.providerRestaurantId, []);

    nextAnswers.push({ kind: 'retry', answer: { httpStatus: 503, body: { error: 'busy' } }, retryAfterMs: 5_000 });
    const started = Date.now();
    const retried = await importNow(a.restaurantId, a.integrationId);
    expect(retried.view).toMatchObject({ state: 'running', attempts: 1, lastAnswer: { outcome: 'retry', httpStatus: 503 } });
    expect((retried.outcome as { rescheduleAt: Date }).rescheduleAt.getTime()).toBeGreaterThanOrEqual(started + 5_000);

    nextAnswers.push({ kind: 'failed', answer: { httpStatus: 401, body: { error: 'bad key' } }, reason: 'credentials refused' });
    expect(await worker.run(retried.accepted.importId)).toBeUndefined();
    const failed = await service.importView(a.restaurantId, retried.accepted.importId);
    expect(failed).toMatchObject({ state: 'failed', attempts: 2, lastError: 'credentials refused', lastAnswer: { outcome: 'failed', httpStatus: 401 }, counts: null, finishedAt: expect.any(String) });
    expect(await catalogState(a.restaurantId)).toEqual(before);
    expect(await driftEvents(a.integrationId)).toEqual([]);
    // A second run of its task finds it ended and reads nothing.
    const readsBefore = reads;
    expect(await worker.run(retried.accepted.importId)).toBeUndefined();
    expect(reads).toBe(readsBefore);
  });

  it('waits for the slot it booked when the platform\'s budget has no room, without reading', async () => {
    const a = await integrationWith(READER_BUDGETED, [product('b-1', 'Ayran', 35)]);
    await importNow(a.restaurantId, a.integrationId);
    const readsBefore = reads;

    const { accepted, outcome, view } = await importNow(a.restaurantId, a.integrationId);

    expect(reads).toBe(readsBefore);
    const slot = (outcome as { rescheduleAt: Date }).rescheduleAt;
    expect(slot.getTime()).toBeGreaterThan(Date.now() + 3_500_000);
    expect(view).toMatchObject({ state: 'running', attempts: 0 });
    const [row] = await db.sql<{ budget_slot_at: Date }>('SELECT budget_slot_at FROM catalog_imports WHERE id = $1', [accepted.importId]);
    expect(row.budget_slot_at.getTime()).toBe(slot.getTime());
    // Woken early, it waits for the same slot instead of booking another.
    expect(await worker.run(accepted.importId)).toEqual({ rescheduleAt: slot });
  });

  it('answers what an import cannot be asked for', async () => {
    const a = await integrationWith(READER, []);
    const none = await integrationWith(NO_READ, [], a.restaurantId);
    const unverified = await integrationWith(READER, [], a.restaurantId);
    await db.sql(`UPDATE integrations SET verification = 'failed' WHERE integration_id = $1`, [unverified.integrationId]);
    const inactive = await integrationWith(READER, [], a.restaurantId);
    await db.sql('UPDATE integrations SET is_active = false WHERE integration_id = $1', [inactive.integrationId]);
    const foreign = await integrationWith(READER, []);

    const unsupported = await problemOf(service.requestImport(a.restaurantId, none.integrationId));
    expect([unsupported!.getStatus(), unsupported!.code, unsupported!.detail]).toEqual([422, 'MENU_READ_UNSUPPORTED', noRead.menuReadUnsupported]);
    expect([(await problemOf(service.requestImport(a.restaurantId, unverified.integrationId)))!.code]).toEqual(['INTEGRATION_NOT_VERIFIED']);
    expect([(await problemOf(service.requestImport(a.restaurantId, inactive.integrationId)))!.code]).toEqual(['INTEGRATION_DISABLED']);
    const notFound = await problemOf(service.requestImport(a.restaurantId, foreign.integrationId));
    expect([notFound!.getStatus(), notFound!.code]).toEqual([404, 'INTEGRATION_NOT_FOUND']);
    expect(await db.sql('SELECT id FROM catalog_imports WHERE integration_id = ANY($1::text[])', [[none.integrationId, unverified.integrationId, inactive.integrationId, foreign.integrationId]])).toEqual([]);
    for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      const missing = await problemOf(service.importView(a.restaurantId, id));
      expect([missing!.getStatus(), missing!.code]).toEqual([404, 'IMPORT_NOT_FOUND']);
    }
    // Another account's import is not found either.
    const theirs = await service.requestImport(foreign.restaurantId, foreign.integrationId);
    expect((await problemOf(service.importView(a.restaurantId, theirs.importId)))!.code).toBe('IMPORT_NOT_FOUND');
    await worker.run(theirs.importId);
  });

  it('fails a queued import whose integration was disabled meanwhile, reading nothing', async () => {
    const a = await integrationWith(READER, [product('x-1', 'Ayran', 35)]);
    const accepted = await service.requestImport(a.restaurantId, a.integrationId);
    await db.sql('UPDATE integrations SET is_active = false WHERE integration_id = $1', [a.integrationId]);
    const readsBefore = reads;

    await worker.run(accepted.importId);

    expect(reads).toBe(readsBefore);
    expect(await repository.importById(accepted.importId)).toMatchObject({ state: 'failed', lastError: expect.stringMatching(/^INTEGRATION_DISABLED/) });
  });

  it('leaves out of the unmapped list every product seen in orders once it is linked, on the menu or not', async () => {
    const a = await integrationWith(READER, [product('u-1', 'Mercimek', 60), product('u-2', 'Ezogelin', 60), product('u-3', 'Tarhana', 55)]);
    const b = await integrationWith(READER, [], a.restaurantId);
    await importNow(a.restaurantId, a.integrationId);
    const seen = async (integrationId: string, platformProductId: string, name: string | null) =>
      db.sql(
        `INSERT INTO catalog_order_products (integration_id, platform_product_id, restaurant_id, platform, name, orders, first_seen_at, last_seen_at) VALUES ($1, $2, $3, $4, $5, 3, now(), now())`,
        [integrationId, platformProductId, a.restaurantId, READER, name],
      );
    // On the menu and in orders; in orders only; in orders only with no name; the same id on another integration.
    await seen(a.integrationId, 'u-1', 'Mercimek');
    await seen(a.integrationId, 'o-1', 'Yayla');
    await seen(a.integrationId, 'o-2', null);
    await seen(b.integrationId, 'u-1', 'Mercimek');
    const listed = async () => (await service.unmapped(a.restaurantId)).products.map((p) => `${p.integrationId === a.integrationId ? 'a' : 'b'}:${p.platformProductId}:${p.onMenu}:${p.seenInOrders}`).sort();
    expect(await listed()).toEqual(['a:o-1:false:3', 'a:o-2:false:3', 'a:u-1:true:3', 'a:u-2:true:0', 'a:u-3:true:0', 'b:u-1:false:3']);

    await service.setLinks(a.restaurantId, 'CORBA-01', { links: [{ integrationId: a.integrationId, platformProductId: 'u-1' }] });
    await service.setLinks(a.restaurantId, 'CORBA-02', { links: [{ integrationId: a.integrationId, platformProductId: 'o-1' }] });
    await service.setLinks(a.restaurantId, 'CORBA-03', { links: [{ integrationId: a.integrationId, platformProductId: 'o-2' }] });
    // The order rows stay after linking; the list leaves them out (b's u-1 is not linked: it stays).
    expect(await db.sql('SELECT count(*)::int AS n FROM catalog_order_products WHERE restaurant_id = $1', [a.restaurantId])).toEqual([{ n: 4 }]);
    expect(await listed()).toEqual(['a:u-2:true:0', 'a:u-3:true:0', 'b:u-1:false:3']);

    // A linked product the menu no longer lists, still in orders: left out too.
    menus.set(a.providerRestaurantId, [product('u-2', 'Ezogelin', 60), product('u-3', 'Tarhana', 55)]);
    await importNow(a.restaurantId, a.integrationId);
    expect(await listed()).toEqual(['a:u-2:true:0', 'a:u-3:true:0', 'b:u-1:false:3']);
  });

  it('stores a menu with a price the database cannot hold (none stored) and NUL in its texts (taken out), instead of failing the import on every read', async () => {
    const a = await integrationWith(READER, [product('n-1', 'Büyük', 1e12), product('n-2', 'Ay\u0000ran', 35, { platformData: { note: 'a\u0000b' } }), product('n-3', 'Çay', 15)]);
    const { outcome, view } = await importNow(a.restaurantId, a.integrationId);
    expect([outcome, view.state, view.counts?.products]).toEqual([undefined, 'done', 3]);
    expect(await db.sql('SELECT platform_product_id, name, price::float8 AS price, platform_data FROM catalog_products WHERE integration_id = $1 ORDER BY 1', [a.integrationId])).toEqual([
      { platform_product_id: 'n-1', name: 'Büyük', price: null, platform_data: { chainProductId: 'chain-n-1' } },
      { platform_product_id: 'n-2', name: 'Ayran', price: 35, platform_data: { note: 'ab' } },
      { platform_product_id: 'n-3', name: 'Çay', price: 15, platform_data: { chainProductId: 'chain-n-3' } },
    ]);
  });

  it('answers links set on a code that sorts after the first 5000 codes of the restaurant (GET /catalog lists at most 5000)', async () => {
    const a = await integrationWith(READER, [product('w-1', 'Su', 10)]);
    await importNow(a.restaurantId, a.integrationId);
    await db.sql(`INSERT INTO catalog_codes (restaurant_id, product_code, source, created_at) SELECT $1, 'A' || lpad(n::text, 5, '0'), 'manual', now() FROM generate_series(1, 5000) n`, [a.restaurantId]);
    const linked = await service.setLinks(a.restaurantId, 'ZZ-SU', { links: [{ integrationId: a.integrationId, platformProductId: 'w-1' }] });
    expect(linked).toMatchObject({ productCode: 'ZZ-SU', name: 'Su', integrations: [{ integrationId: a.integrationId, linked: { platformProductId: 'w-1' } }] });
  });
});
