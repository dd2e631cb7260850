import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { appDataSourceOptions, runMigrationsLocked } from '@courier/persistence';
import { createTestDatabase, TestDatabase } from '@courier/testing';
import { IntakeTestApp, startIntakeApp } from '../../test/harness';
import { PERSISTENCE } from '../app/persistence';

jest.setTimeout(60_000);

/** A database from before orderIds were compared by identity, holding ids that differ only by case, migrated by the app's start. */
describe('migration 1764401110000: orderId identity key on existing orders', () => {
  let database: TestDatabase;
  let t: IntakeTestApp;
  const restaurant = 'rest_identityMigration0000001';
  const other = 'rest_identityMigration0000002';
  const orders: Array<[string, string, string]> = [
    [restaurant, 'ABC-1', '2025-01-01T00:00:00Z'],
    [restaurant, 'abc-1', '2025-01-02T00:00:00Z'],
    [restaurant, ' Spaced-2 ', '2025-01-03T00:00:00Z'],
    [restaurant, '\uff26\uff35\uff2c\uff2c-3', '2025-01-04T00:00:00Z'],
    [other, 'ABC-1', '2025-01-05T00:00:00Z'],
  ];

  beforeAll(async () => {
    database = await createTestDatabase('intake_api_identity');
    const migrations = PERSISTENCE.migrations as Function[];
    const before = await new DataSource(
      appDataSourceOptions({ schema: PERSISTENCE.schema, url: database.url, entities: PERSISTENCE.entities, migrations: migrations.slice(0, migrations.length - 1) }),
    ).initialize();
    try {
      await runMigrationsLocked(before, PERSISTENCE.schema);
      for (const [restaurantId, orderId, receivedAt] of orders) {
        await before.query(
          `INSERT INTO orders (restaurant_id, order_id, yemek_kurye_order_id, payload_hash, payload, state, received_at, processed_at)
           VALUES ($1, $2, $3, 'hash', $4, 'PROCESSED', $5, $5)`,
          [restaurantId, orderId, randomUUID(), JSON.stringify({ orderId, restaurantId }), receivedAt],
        );
      }
    } finally {
      await before.destroy();
    }
    t = await startIntakeApp({ database });
  });
  afterAll(() => t?.close());

  it('keys every order; of two that differ only by case the earlier keeps the key, the later is kept under its exact id and logged', async () => {
    const rows = await t.sql('SELECT restaurant_id, order_id, order_id_key FROM orders ORDER BY received_at');
    expect(rows).toEqual([
      { restaurant_id: restaurant, order_id: 'ABC-1', order_id_key: 'abc-1' },
      { restaurant_id: restaurant, order_id: 'abc-1', order_id_key: null },
      { restaurant_id: restaurant, order_id: ' Spaced-2 ', order_id_key: 'spaced-2' },
      { restaurant_id: restaurant, order_id: '\uff26\uff35\uff2c\uff2c-3', order_id_key: 'full-3' },
      { restaurant_id: other, order_id: 'ABC-1', order_id_key: 'abc-1' },
    ]);
    const warnings = t.logLines.filter((line) => line.includes('differs only by case'));
    expect(warnings).toEqual([expect.stringContaining('abc-1')]);
  });

  it('enforces the key from now on', async () => {
    await expect(
      t.sql(`INSERT INTO orders (restaurant_id, order_id, order_id_key, yemek_kurye_order_id, payload_hash, payload, state, received_at) VALUES ($1, 'Abc-1', 'abc-1', $2, 'h', '{}', 'ACCEPTED', now())`, [restaurant, randomUUID()]),
    ).rejects.toThrow(/orders_restaurant_order_identity_key/);
  });
});
