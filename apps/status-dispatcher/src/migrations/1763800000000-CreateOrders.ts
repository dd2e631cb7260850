import { MigrationInterface, QueryRunner } from 'typeorm';

/** Orders, their status history and the per-restaurant order number counters, in schema "dispatcher". */
export class CreateOrders1763800000000 implements MigrationInterface {
  name = 'CreateOrders1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE orders (
        id uuid PRIMARY KEY,
        order_id text NOT NULL,
        restaurant_id text NOT NULL,
        provider text NOT NULL,
        provider_restaurant_id text NOT NULL,
        order_number text NOT NULL,
        status text NOT NULL CHECK (status IN ('NEW', 'VALIDATED', 'ROUTED', 'ASSIGNED', 'ACCEPTED', 'PREPARED', 'ON_DELIVERY', 'DELIVERED', 'CANCELED', 'FAILED')),
        sequence int NOT NULL DEFAULT 0,
        details jsonb NOT NULL,
        received_at timestamptz(3) NOT NULL,
        scheduled_delivery_time timestamptz(3),
        final_approval_due_at timestamptz(3),
        final_approved_at timestamptz(3),
        status_changed_at timestamptz(3) NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    // The sender's orderId is unique per restaurant and provider; the order number per restaurant.
    await queryRunner.query('CREATE UNIQUE INDEX orders_restaurant_provider_order_key ON orders (restaurant_id, provider, order_id)');
    await queryRunner.query(`CREATE UNIQUE INDEX orders_restaurant_number_key ON orders (restaurant_id, order_number) WHERE provider = 'THIRD_PARTY'`);
    await queryRunner.query(`
      CREATE TABLE order_status_changes (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        order_id uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
        sequence int NOT NULL,
        status text NOT NULL,
        previous_status text,
        trigger text,
        occurred_at timestamptz(3) NOT NULL,
        recorded_at timestamptz(3) NOT NULL DEFAULT now(),
        reason text,
        cancel_reason_id text,
        canceled_by text,
        -- A second net under the row lock: two moves can never claim the same step of one order.
        CONSTRAINT order_status_changes_order_sequence_key UNIQUE (order_id, sequence)
      )`);
    await queryRunner.query(`
      CREATE TABLE restaurant_order_counters (
        restaurant_id text PRIMARY KEY,
        last_number bigint NOT NULL CHECK (last_number >= 0)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE IF EXISTS restaurant_order_counters');
    await queryRunner.query('DROP TABLE IF EXISTS order_status_changes');
    await queryRunner.query('DROP TABLE IF EXISTS orders');
  }
}
