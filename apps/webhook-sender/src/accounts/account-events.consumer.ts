import { Logger } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { ACCOUNT_SNAPSHOT_KEYS, AccountSnapshot, Queues } from '@courier/contracts';
import { MessageConsumer, MessageContext } from '@courier/messaging';
import { WebhookAccountsService } from './webhook-accounts.service';

/**
 * Keeps the accounts read model from webhook-sender.account-events. Every account.* event carries
 * the whole account and its version, so "newest version wins" is idempotent and order-independent
 * and needs no inbox row. A snapshot that breaks its contract is refused by the payload pipe:
 * after the delivery limit it rests in the dead-letter queue, where it can be inspected.
 */
@MessageConsumer()
export class AccountEventsConsumer {
  private readonly logger = new Logger('AccountEvents');

  constructor(private readonly accounts: WebhookAccountsService) {}

  @EventPattern([...ACCOUNT_SNAPSHOT_KEYS], { queue: Queues.senderAccountEvents })
  async onAccountSnapshot(@Payload() snapshot: AccountSnapshot, @Ctx() context: MessageContext): Promise<void> {
    const applied = await this.accounts.applySnapshot(snapshot);
    this.logger.debug({ routingKey: context.routingKey, restaurantId: snapshot.restaurantId, version: snapshot.version, applied }, 'account snapshot');
  }
}
