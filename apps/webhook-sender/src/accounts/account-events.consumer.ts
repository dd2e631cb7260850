import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { ACCOUNT_SNAPSHOT_KEYS, AccountSnapshot, Queues } from '@courier/contracts';
import { IncomingMessage, Messaging } from '@courier/messaging';
import { WebhookAccountsService } from './webhook-accounts.service';

const SNAPSHOT_KEYS: ReadonlySet<string> = new Set(ACCOUNT_SNAPSHOT_KEYS);

/**
 * Keeps the accounts read model from webhook-sender.account-events. Every account.* event carries
 * the whole account and its version, so "newest version wins" is idempotent and order-independent
 * and needs no inbox row.
 */
@Injectable()
export class AccountEventsConsumer implements OnModuleInit {
  private readonly logger = new Logger('AccountEvents');

  constructor(
    private readonly messaging: Messaging,
    private readonly accounts: WebhookAccountsService,
  ) {}

  onModuleInit(): void {
    this.messaging.subscribe(Queues.senderAccountEvents, (message) => this.handle(message));
  }

  async handle(message: IncomingMessage): Promise<void> {
    if (!SNAPSHOT_KEYS.has(message.routingKey)) return;
    const isObject = typeof message.payload === 'object' && message.payload !== null && !Array.isArray(message.payload);
    const snapshot = plainToInstance(AccountSnapshot, message.payload);
    if (!isObject || validateSync(snapshot).length > 0) {
      // Thrown: after the delivery limit it rests in the dead-letter queue, where it can be inspected.
      throw new Error(`malformed ${message.routingKey} event ${message.messageId}`);
    }
    const applied = await this.accounts.applySnapshot(snapshot);
    this.logger.debug({ routingKey: message.routingKey, restaurantId: snapshot.restaurantId, version: snapshot.version, applied }, 'account snapshot');
  }
}
