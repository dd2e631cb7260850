import { MigrationInterface, QueryRunner } from 'typeorm';
import { createRateLimitCountersTable, dropRateLimitCountersTable } from '@courier/rate-limit';

/** The shared counters of the failed-authentication throttle (when REDIS_URL is unset), in status-dispatcher's schema. */
export class CreateRateLimitCounters1764300800000 implements MigrationInterface {
  name = 'CreateRateLimitCounters1764300800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createRateLimitCountersTable(queryRunner);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropRateLimitCountersTable(queryRunner);
  }
}
