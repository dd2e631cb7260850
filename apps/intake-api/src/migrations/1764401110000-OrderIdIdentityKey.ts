import { Logger } from '@nestjs/common';
import { MigrationInterface, QueryRunner } from 'typeorm';
import { identityKey } from '@courier/domain';

/** Rows whose key is computed in code per round (those the SQL fast path does not cover). */
const PAGE = 5_000;
/** Collisions named one by one in the log; the rest are counted. */
const LOGGED_COLLISIONS = 100;

/**
 * orderIds that differ only by case, width or surrounding space are one order of the restaurant:
 * orders gets order_id_key (identityKey) and a unique index on (restaurant_id, order_id_key).
 * Printable ASCII ids without surrounding space (nearly all) get their key in SQL, lower-cased by
 * translate() (lower() would follow the database's locale); the others in code, page by page.
 * Existing orders that already collide on the key are left as they are: the earliest received gets
 * the key, the others keep a null key (still unique under their exact ids, by the primary key) and
 * are logged; a lookup by their exact id still finds them.
 */
export class OrderIdIdentityKey1764401110000 implements MigrationInterface {
  name = 'OrderIdIdentityKey1764401110000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE orders ADD COLUMN order_id_key text');
    await queryRunner.query(`
      UPDATE orders SET order_id_key = translate(order_id, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')
       WHERE order_id ~ '^[!-~]([ -~]*[!-~])?$'`);
    for (;;) {
      const rows: Array<{ restaurant_id: string; order_id: string }> = await queryRunner.query('SELECT restaurant_id, order_id FROM orders WHERE order_id_key IS NULL LIMIT $1', [PAGE]);
      if (rows.length === 0) break;
      await queryRunner.query(
        `UPDATE orders o SET order_id_key = k.key
           FROM unnest($1::text[], $2::text[], $3::text[]) AS k(restaurant_id, order_id, key)
          WHERE o.restaurant_id = k.restaurant_id AND o.order_id = k.order_id`,
        [rows.map((row) => row.restaurant_id), rows.map((row) => row.order_id), rows.map((row) => identityKey(row.order_id))],
      );
    }
    const updated: unknown[] = await queryRunner.query(`
      WITH ranked AS (
        SELECT restaurant_id, order_id, row_number() OVER (PARTITION BY restaurant_id, order_id_key ORDER BY received_at, order_id) AS rank FROM orders
      )
      UPDATE orders o SET order_id_key = NULL
        FROM ranked r
       WHERE r.rank > 1 AND o.restaurant_id = r.restaurant_id AND o.order_id = r.order_id
      RETURNING o.restaurant_id, o.order_id, o.yemek_kurye_order_id`);
    // TypeORM answers an UPDATE ... RETURNING on PostgreSQL with [rows, affected count].
    const collided = (Array.isArray(updated[0]) ? updated[0] : updated) as Array<{ restaurant_id: string; order_id: string; yemek_kurye_order_id: string }>;
    const logger = new Logger('Migration');
    for (const row of collided.slice(0, LOGGED_COLLISIONS)) {
      logger.warn(
        `orderId differs only by case, width or space from an earlier order of the restaurant: kept under its exact id (no identity key): ` +
          JSON.stringify({ restaurantId: row.restaurant_id, orderId: row.order_id, yemekKuryeOrderId: row.yemek_kurye_order_id }),
      );
    }
    if (collided.length > LOGGED_COLLISIONS) logger.warn(`orderIds kept under their exact ids (no identity key), in all: ${collided.length}`);
    await queryRunner.query('CREATE UNIQUE INDEX orders_restaurant_order_identity_key ON orders (restaurant_id, order_id_key)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX IF EXISTS orders_restaurant_order_identity_key');
    await queryRunner.query('ALTER TABLE orders DROP COLUMN IF EXISTS order_id_key');
  }
}
