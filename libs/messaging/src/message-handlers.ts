import {
  applyDecorators,
  ArgumentsHost,
  Catch,
  Controller,
  INestApplication,
  Injectable,
  Logger,
  RpcExceptionFilter,
  UseFilters,
  UsePipes,
  ValidationError,
  ValidationPipe,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { BaseRpcContext, CustomTransportStrategy, MessageHandler as NestMessageHandler, Server } from '@nestjs/microservices';
import { lastValueFrom, Observable, throwError } from 'rxjs';
import type { QueueSpec } from '@courier/contracts';
import { findProvider } from '@courier/config';
import { Messaging } from './messaging.service';
import { IncomingMessage, topicMatches } from './transport';

/**
 * What `@EventPattern(routingKey, extras)` of a message handler must say: the queue it consumes
 * from (one of the app's queues in `Queues`, whose bindings must cover the routing key) and,
 * optionally, that queue's prefetch (default RABBITMQ_PREFETCH).
 */
export interface ConsumeFrom {
  queue: QueueSpec;
  prefetch?: number;
}

/** `@Ctx()` of a message handler: the delivery as the transport handed it over. */
export class MessageContext extends BaseRpcContext<[IncomingMessage, string]> {
  get message(): IncomingMessage {
    return this.args[0];
  }
  /** The queue's name (without the namespace prefix). */
  get queue(): string {
    return this.args[1];
  }
  get messageId(): string {
    return this.args[0].messageId;
  }
  get routingKey(): string {
    return this.args[0].routingKey;
  }
  get headers(): Record<string, string> {
    return this.args[0].headers;
  }
  /** 1 on the first delivery, then counts every redelivery. */
  get deliveryCount(): number {
    return this.args[0].deliveryCount;
  }
}

/** A message whose payload breaks its contract: thrown so that it is redelivered, then dead-lettered. */
export class MalformedMessageError extends Error {
  constructor(subject: string, problems: string[]) {
    super(`${subject}: malformed payload (${problems.join('; ')})`);
    this.name = 'MalformedMessageError';
  }
}

function describeProblems(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((error) => {
    const field = `${prefix}${error.property}`;
    const own = Object.values(error.constraints ?? {}).map((constraint) => `${field}: ${constraint}`);
    return [...own, ...describeProblems(error.children ?? [], `${field}.`)];
  });
}

/**
 * `@Payload()` is validated and transformed against its contract class like an HTTP body. Unknown
 * fields are kept, not refused: during a rolling deploy a newer producer may add one, and a
 * message refused for it would be dead-lettered (the HTTP side is strict, messages are tolerant).
 */
export function messagePayloadPipe(): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    forbidUnknownValues: true,
    validationError: { target: true, value: false },
    exceptionFactory: (errors) => new MalformedMessageError(errors[0]?.target?.constructor?.name ?? 'message', describeProblems(errors)),
  });
}

/**
 * Nest's default RPC filter turns every error into `{ status: 'error', message }`; a message
 * handler's error must reach the transport as it is (it decides redelivery and dead-lettering).
 */
@Catch()
export class MessageErrorPassThrough implements RpcExceptionFilter<unknown> {
  catch(exception: unknown, _host: ArgumentsHost): Observable<never> {
    return throwError(() => exception);
  }
}

/**
 * A class of message handlers: a controller (Nest finds `@EventPattern` methods on controllers
 * only) whose payloads are validated and whose errors reach the transport unchanged. List it in
 * its module's `controllers` (it has no HTTP route and is left out of the OpenAPI document). Correlation id and metrics need no interceptor: the transport opens
 * the correlation scope (its own log lines, a failed handler or a dead letter, carry it too) and
 * Messaging observes every delivery, also those of a routing key no handler takes.
 */
export function MessageConsumer(): ClassDecorator {
  return applyDecorators(Controller(), ApiExcludeController(), UsePipes(messagePayloadPipe()), UseFilters(new MessageErrorPassThrough()));
}

interface QueueRoutes {
  queue: QueueSpec;
  prefetch?: number;
  handlers: Map<string, NestMessageHandler>;
}

/**
 * The `@nestjs/microservices` transport strategy over our own reliable layer (Messaging and its
 * AmqpTransport or InProcessTransport: confirms, manual ack after the handler resolved,
 * prefetch per queue, dead-lettering, reconnect). Each queue named by a handler is consumed once;
 * its deliveries go to the handler of their routing key. A handler that resolves acknowledges
 * the message; one that throws gets it again, and past the queue's delivery limit it is
 * dead-lettered. A routing key bound to the queue without a handler here is acknowledged.
 *
 * Consumers start with the app (Messaging, on bootstrap) and stop first on shutdown, before the
 * relay and the connections: `close()` has nothing left to do.
 */
@Injectable()
export class MessageServer extends Server implements CustomTransportStrategy {
  private readonly log = new Logger('MessageServer');

  constructor(private readonly messaging: Messaging) {
    super();
  }

  listen(callback: (error?: unknown) => void): void {
    let routes: QueueRoutes[];
    try {
      routes = this.routesByQueue();
    } catch (error) {
      callback(error);
      return;
    }
    for (const route of routes) {
      this.messaging.subscribe(route.queue, (message) => this.dispatch(route, message), { prefetch: route.prefetch });
    }
    callback();
  }

  close(): void {}

  on(): never {
    throw new Error('MessageServer has no events to listen to');
  }

  unwrap<T>(): T {
    return this.messaging.transport as T;
  }

  private async dispatch(route: QueueRoutes, message: IncomingMessage): Promise<void> {
    const handler = route.handlers.get(message.routingKey);
    if (!handler) {
      // A binding added before this code knows the key: acknowledged rather than dead-lettered.
      this.log.warn({ queue: route.queue.name, routingKey: message.routingKey, messageId: message.messageId }, 'message of a routing key without a handler acknowledged');
      return;
    }
    const result = await handler(message.payload, new MessageContext([message, route.queue.name]));
    await lastValueFrom(this.transformToObservable(result), { defaultValue: undefined });
  }

  /** Fails the start when a handler names no queue, a queue not bound to its key, or a key twice. */
  private routesByQueue(): QueueRoutes[] {
    const routes = new Map<string, QueueRoutes>();
    for (const [routingKey, handler] of this.messageHandlers) {
      if (!handler.isEventHandler) throw new Error(`@MessagePattern('${routingKey}'): only @EventPattern handlers are supported`);
      const extras = handler.extras as Partial<ConsumeFrom> | undefined;
      if (!extras?.queue) throw new Error(`@EventPattern('${routingKey}') names no queue: add { queue: Queues.<name> }`);
      const { queue, prefetch } = extras;
      if (!queue.bindings.some((binding) => topicMatches(binding, routingKey))) throw new Error(`@EventPattern('${routingKey}'): queue ${queue.name} is not bound to it`);
      if (handler.next) throw new Error(`@EventPattern('${routingKey}') is handled twice in this app`);
      const route = routes.get(queue.name) ?? { queue, prefetch, handlers: new Map() };
      if (prefetch !== undefined && route.prefetch !== undefined && prefetch !== route.prefetch) throw new Error(`queue ${queue.name}: two prefetches (${route.prefetch}, ${prefetch})`);
      route.prefetch ??= prefetch;
      route.handlers.set(routingKey, handler);
      routes.set(queue.name, route);
    }
    return [...routes.values()];
  }
}

/**
 * Connects the app's message handlers (hybrid app): called by createHttpApp for every app; an app
 * without MessagingModule has no MessageServer and nothing to connect. The HTTP app's global
 * pipes, filters and interceptors are not inherited: message handlers get theirs from
 * `@MessageConsumer()`.
 */
export async function connectMessageHandlers(app: INestApplication): Promise<void> {
  const server = findProvider<MessageServer>(app, MessageServer);
  if (!server) return;
  app.connectMicroservice({ strategy: server }, { inheritAppConfig: false });
  await app.startAllMicroservices();
}
