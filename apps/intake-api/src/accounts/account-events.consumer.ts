import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { ACCOUNT_SNAPSHOT_KEYS, AccountSnapshot, Queues } from '@courier/contracts';
import { IncomingMessage, Messaging } from '@courier/messaging';
import { AccountsService } from './accounts.service';

const SNAPSHOT_KEYS: ReadonlySet<string> = new Set(ACCOUNT_SNAPSHOT_KEYS);

/**
 * Keeps the accounts read model: every account.* event carries the whole account with its
 * version, so applying "newest version wins" is idempotent and order-independent. integration.*
 * events also reach this queue; intake needs none of them (the THIRD_PARTY state is in the
 * snapshot), so they are acknowledged and dropped.
 */
@Injectable()
export class AccountEventsConsumer implements OnModuleInit {
  private readonly logger = new Logger('AccountEventsConsumer');

  constructor(
    private readonly messaging: Messaging,
    private readonly accounts: AccountsService,
  ) {}

  onModuleInit(): void {
    this.messaging.subscribe(Queues.intakeAccountEvents, (message) => this.handle(message));
  }

  async handle(message: IncomingMessage): Promise<void> {
    if (!SNAPSHOT_KEYS.has(message.routingKey)) return;
    const snapshot = plainToInstance(AccountSnapshot, message.payload);
    const errors = typeof message.payload === 'object' && message.payload !== null ? validateSync(snapshot) : ['not an object'];
    if (errors.length > 0) {
      // Throwing sends it to the dead-letter queue after the delivery limit, where it can be inspected.
      throw new Error(`malformed ${message.routingKey} event ${message.messageId}`);
    }
    const applied = await this.accounts.applySnapshot(snapshot);
    this.logger.debug({ routingKey: message.routingKey, restaurantId: snapshot.restaurantId, version: snapshot.version, applied }, 'account snapshot');
  }
}
