import { MigrationInterface, QueryRunner } from 'typeorm';
import { addOutboxLease, dropOutboxLease } from '@courier/messaging';

/** The outbox relay's lease column (claim, publish and mark without holding a transaction), in schema "integrations". */
export class AddOutboxLease1764200000000 implements MigrationInterface {
  name = 'AddOutboxLease1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addOutboxLease(queryRunner);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropOutboxLease(queryRunner);
  }
}
