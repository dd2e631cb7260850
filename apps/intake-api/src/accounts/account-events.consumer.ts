import { Logger } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { AccountSnapshot, Queues, RoutingKey } from '@courier/contracts';
import { MessageConsumer, MessageContext } from '@courier/messaging';
import { AccountsService } from './accounts.service';

const fromAccountEvents = { queue: Queues.intakeAccountEvents };

/**
 * Keeps the accounts read model: every account.* event carries the whole account with its
 * version, so applying "newest version wins" is idempotent and order-independent. A snapshot that
 * breaks its contract is refused by the payload pipe: redelivered, then dead-lettered, where it
 * can be inspected.
 */
@MessageConsumer()
export class AccountEventsConsumer {
  private readonly logger = new Logger('AccountEventsConsumer');

  constructor(private readonly accounts: AccountsService) {}

  @EventPattern([RoutingKey.AccountCreated, RoutingKey.AccountUpdated, RoutingKey.AccountDisabled, RoutingKey.AccountKeysRotated], fromAccountEvents)
  async onAccountSnapshot(@Payload() snapshot: AccountSnapshot, @Ctx() context: MessageContext): Promise<void> {
    const applied = await this.accounts.applySnapshot(snapshot);
    this.logger.debug({ routingKey: context.routingKey, restaurantId: snapshot.restaurantId, version: snapshot.version, applied }, 'account snapshot');
  }

  /** integration.* events also reach this queue; intake needs none of them (the THIRD_PARTY state is in the snapshot). */
  @EventPattern([RoutingKey.IntegrationUpserted, RoutingKey.IntegrationDeleted], fromAccountEvents)
  onIntegrationEvent(): void {}
}
