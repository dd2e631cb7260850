import { MigrationInterface, QueryRunner } from 'typeorm';
import { createMessagingTables, dropMessagingTables } from '@courier/messaging';

/** Outbox, processed-message and scheduled-task tables of webhook-sender, in schema "webhooks". */
export class InitMessaging1763740000000 implements MigrationInterface {
  name = 'InitMessaging1763740000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createMessagingTables(queryRunner);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropMessagingTables(queryRunner);
  }
}
