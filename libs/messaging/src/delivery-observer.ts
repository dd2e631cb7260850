import { AsyncLocalStorage } from 'node:async_hooks';
import type { DeliveryOutcome, HandledMessage, MessageHandler } from './transport';

interface DeliveryScope {
  duplicate: boolean;
}

const deliveries = new AsyncLocalStorage<DeliveryScope>();

/** Called by UnitOfWork.consumeOnce when the inbox already holds the message: the delivery is a duplicate. */
export function markDuplicateDelivery(): void {
  const scope = deliveries.getStore();
  if (scope) scope.duplicate = true;
}

/**
 * Wraps a subscribed handler so that each delivery's outcome (ok, error, or an inbox duplicate),
 * duration and age are reported. The handler's behaviour is unchanged: errors are rethrown.
 */
export function observeDeliveries(queue: string, handler: MessageHandler, report: (handled: HandledMessage) => void): MessageHandler {
  return async (message) => {
    const started = Date.now();
    const ageMs = message.publishedAt ? Math.max(0, started - message.publishedAt.getTime()) : undefined;
    const scope: DeliveryScope = { duplicate: false };
    let outcome: DeliveryOutcome = 'error';
    try {
      await deliveries.run(scope, () => handler(message));
      outcome = scope.duplicate ? 'duplicate' : 'ok';
    } finally {
      report({ queue, outcome, durationMs: Date.now() - started, ageMs });
    }
  };
}
