import { Injectable, MessageEvent, OnModuleDestroy } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { interval, map, merge, Observable, startWith, Subject, takeUntil, tap } from 'rxjs';
import type { CatalogDriftReport, ReceivedWebhook, SentOrderView, StoreStatus, TrackedOrderView } from '../state/receiver-state';

export type ReceiverEvent =
  | { type: 'webhook'; data: ReceivedWebhook }
  | { type: 'order'; data: SentOrderView }
  | { type: 'track'; data: TrackedOrderView }
  | { type: 'store'; data: StoreStatus }
  | { type: 'drift'; data: CatalogDriftReport };

const HEARTBEAT_MS = 15_000;

/** Fan-out of what the receiver records to every open dashboard (server-sent events). */
@Injectable()
export class ReceiverEvents implements OnModuleDestroy {
  private readonly events = new Subject<ReceiverEvent>();
  private readonly closing = new Subject<void>();

  publish(event: ReceiverEvent): void {
    this.events.next(event);
  }

  /**
   * The SSE stream of one client: a `ready` event, then every event, with comment heartbeats. On
   * shutdown the stream ends, and `response`'s connection is closed once the end is sent: a
   * keep-alive connection left idle would hold the HTTP server's close for its whole timeout.
   */
  stream(response?: ServerResponse): Observable<MessageEvent> {
    const socket = response?.socket;
    const shutdown = this.closing.pipe(tap(() => response?.once('finish', () => socket?.end())));
    const heartbeats = interval(HEARTBEAT_MS).pipe(map((): MessageEvent => ({ comment: 'heartbeat' })));
    const recorded = this.events.pipe(map((event): MessageEvent => ({ type: event.type, data: event.data })));
    return merge(recorded, heartbeats).pipe(
      startWith<MessageEvent>({ type: 'ready', data: { connectedAt: new Date().toISOString() }, retry: 2000 }),
      // Open streams would otherwise keep the HTTP server from closing on shutdown.
      takeUntil(shutdown),
    );
  }

  onModuleDestroy(): void {
    this.closing.next();
    this.closing.complete();
    this.events.complete();
  }
}
