import { randomUUID } from 'node:crypto';
import { SenderApp, startSender } from '../../test/harness';
import { DeliveryRetention } from './delivery-retention';

const DAY = 86_400_000;

describe('delivery retention (WEBHOOK_RETENTION)', () => {
  let sender: SenderApp;

  beforeAll(async () => {
    sender = await startSender({ env: { WEBHOOK_RETENTION: '30d' } });
  });
  afterAll(async () => {
    await sender?.close();
  });

  /** A delivery row as the consumer stores it, backdated; open ones get their queue row. */
  async function delivery(status: string, ageMs: number, options: { changedAgoMs?: number; attempts?: number } = {}): Promise<string> {
    const id = randomUUID();
    const created = new Date(Date.now() - ageMs);
    const changed = new Date(Date.now() - (options.changedAgoMs ?? ageMs));
    await sender.sql(
      `INSERT INTO webhook_deliveries (id, restaurant_id, event, order_id, yemek_kurye_order_id, source_key, url, body, status, attempts, cycle_started_at, created_at, updated_at)
       VALUES ($1, 'rest_retention', 'order.status_changed', $2, $2, $3, 'https://receiver.example/status', '{}', $4, $5, $6, $6, $7)`,
      [id, `ord_${id.slice(0, 8)}`, `retention:${id}`, status, options.attempts ?? 0, created, changed],
    );
    for (let attempt = 1; attempt <= (options.attempts ?? 0); attempt += 1) {
      await sender.sql(`INSERT INTO webhook_attempts (delivery_id, attempt, url, started_at, status_code, latency_ms) VALUES ($1, $2, 'https://receiver.example/status', $3, 500, 12)`, [id, attempt, created]);
    }
    if (status === 'pending' || status === 'retrying') {
      await sender.sql(`INSERT INTO webhook_delivery_queue (delivery_id, host, due_at) VALUES ($1, 'receiver.example:443', now() + interval '1 hour')`, [id]);
    }
    return id;
  }

  const exists = async (id: string) => (await sender.sql('SELECT 1 FROM webhook_deliveries WHERE id = $1', [id])).length === 1;
  const purgedMetric = async () => (await sender.metrics.registry.getSingleMetric('webhook_deliveries_purged_total')!.get()).values[0]?.value ?? 0;

  it('deletes finished deliveries past the retention with their attempts, never open ones or recent ones', async () => {
    const oldDelivered = await delivery('delivered', 40 * DAY, { attempts: 2 });
    const oldFailed = await delivery('failed', 40 * DAY, { attempts: 3 });
    const oldSkipped = await delivery('skipped', 31 * DAY);
    const oldRetrying = await delivery('retrying', 40 * DAY, { attempts: 5 });
    const oldPending = await delivery('pending', 40 * DAY);
    const recentDelivered = await delivery('delivered', 29 * DAY);
    // Created long ago but redelivered recently: the log still shows it.
    const oldButTouched = await delivery('delivered', 40 * DAY, { changedAgoMs: 2 * DAY, attempts: 1 });
    const before = await purgedMetric();

    const retention = sender.app.get(DeliveryRetention);
    expect(await retention.purge()).toBe(3);

    for (const id of [oldDelivered, oldFailed, oldSkipped]) expect(await exists(id)).toBe(false);
    for (const id of [oldRetrying, oldPending, recentDelivered, oldButTouched]) expect(await exists(id)).toBe(true);
    const attempts = await sender.sql<{ delivery_id: string; n: number }>('SELECT delivery_id, count(*)::int AS n FROM webhook_attempts WHERE delivery_id = ANY($1::uuid[]) GROUP BY delivery_id', [
      [oldDelivered, oldFailed, oldRetrying, oldButTouched],
    ]);
    expect(Object.fromEntries(attempts.map((row) => [row.delivery_id, row.n]))).toEqual({ [oldRetrying]: 5, [oldButTouched]: 1 });
    const queued = await sender.sql<{ delivery_id: string }>('SELECT delivery_id FROM webhook_delivery_queue WHERE delivery_id = ANY($1::uuid[])', [[oldRetrying, oldPending]]);
    expect(queued.map((row) => row.delivery_id).sort()).toEqual([oldRetrying, oldPending].sort());
    expect((await purgedMetric()) - before).toBe(3);

    // Nothing more to delete; at a later "now" the recent one goes too.
    expect(await retention.purge()).toBe(0);
    expect(await retention.purge(new Date(Date.now() + 2 * DAY))).toBe(1);
    expect(await exists(recentDelivered)).toBe(false);
  });

  it('deletes in batches until nothing is left', async () => {
    const ids: string[] = [];
    await sender.sql(
      `INSERT INTO webhook_deliveries (id, restaurant_id, event, order_id, yemek_kurye_order_id, source_key, body, status, cycle_started_at, created_at, updated_at)
       SELECT gen_random_uuid(), 'rest_bulk', 'order.status_changed', 'ord_' || g, 'ord_' || g, 'bulk:' || g, '{}', 'delivered', now() - interval '60 days', now() - interval '60 days', now() - interval '60 days'
         FROM generate_series(1, 2500) g`,
    );
    ids.push(...(await sender.sql<{ id: string }>(`SELECT id FROM webhook_deliveries WHERE restaurant_id = 'rest_bulk'`)).map((row) => row.id));
    expect(ids).toHaveLength(2500);
    expect(await sender.app.get(DeliveryRetention).purge()).toBe(2500);
    expect((await sender.sql(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE restaurant_id = 'rest_bulk'`))[0].n).toBe(0);
  });
});
