import { randomUUID } from 'node:crypto';
import { CORRELATION_HEADER, currentCorrelationId } from '@courier/logging';
import { traceHeaders } from './trace-context';

/**
 * The outbox as the apps write it. An event is written in the same transaction as the state it
 * announces, in one of two ways, and the relay is woken once it is committed:
 * - in a UnitOfWork transaction: `tx.publish(routingKey, payload)` (the unit of work wakes the relay);
 * - inside one statement of a repository's own (a CTE that must carry the state and its event
 *   together): `outboxInsert(...)` or `outboxInsertEvents(...)` give the INSERT ... SELECT part, and
 *   the caller says `outbox.committed(events)` once the statement returned.
 * Only this file (and the relay) spells the outbox table's columns.
 */
export class Outbox {
  constructor(private readonly wakeRelay: () => void) {}

  /** After a commit that wrote `events` events (a count, or whether any): the relay publishes them now rather than at its next poll. */
  committed(events: number | boolean): void {
    if (events === true || (typeof events === 'number' && events > 0)) this.wakeRelay();
  }
}

/** An event as built in TypeScript, before it is written: payload and headers are serialised as JSON. */
export interface OutboxEvent {
  id: string;
  routingKey: string;
  payload: unknown;
  headers: Record<string, string>;
}

/** An event with the current correlation id and trace context in its headers (`headers` added over them). */
export function outboxEvent(routingKey: string, payload: unknown, headers: Record<string, string> = {}): OutboxEvent {
  const correlationId = currentCorrelationId();
  return { id: randomUUID(), routingKey, payload, headers: { ...(correlationId ? { [CORRELATION_HEADER]: correlationId } : {}), ...traceHeaders(), ...headers } };
}

/** Events written by a statement: SQL expressions over the statement's own relations, one event per row of `from`. */
export interface OutboxSelect {
  /** What follows FROM (joins and a WHERE included): one event for each of its rows; none: one event. */
  from?: string;
  routingKey: string;
  /** A jsonb expression. */
  payload: string;
  /** A jsonb expression; none: no headers. */
  headers?: string;
  /** A uuid expression; none: a new id. */
  id?: string;
  /**
   * A timestamptz expression: the event is written claimed until then, for a writer that handles it
   * itself (then `outboxSettle`); past it, the relay publishes it as usual.
   */
  leasedUntil?: string;
}

/** The INSERT ... SELECT that writes `select`'s events: the body of a CTE, or a statement's last part. */
export function outboxInsert(select: OutboxSelect): string {
  return `INSERT INTO outbox_messages (id, routing_key, payload, headers, claimed_until)
         SELECT ${select.id ?? 'gen_random_uuid()'}, ${select.routingKey}, ${select.payload}, ${select.headers ?? `'{}'::jsonb`}, ${select.leasedUntil ?? 'NULL::timestamptz'}${
           select.from ? `
           FROM ${select.from}` : ''
         }`;
}

/**
 * The INSERT ... SELECT that writes events built in TypeScript, given as one parameter
 * (`param`, e.g. '$3', bound to `outboxEventsParam(events)`): all of them once for each row of
 * `from` (e.g. the one-row CTE that says the state moved; none: written unconditionally).
 */
export function outboxInsertEvents(param: string, from?: string): string {
  const events = `jsonb_to_recordset(${param}::jsonb) AS outbox_event(id uuid, routing_key text, payload jsonb, headers jsonb)`;
  return outboxInsert({
    from: from ? `${from}, ${events}` : events,
    id: 'outbox_event.id',
    routingKey: 'outbox_event.routing_key',
    payload: 'outbox_event.payload',
    headers: 'outbox_event.headers',
  });
}

/** The parameter value of `outboxInsertEvents`. */
export function outboxEventsParam(events: OutboxEvent[]): string {
  return JSON.stringify(events.map((event) => ({ id: event.id, routing_key: event.routingKey, payload: event.payload, headers: event.headers })));
}

/**
 * The UPDATE that settles events their writer handled itself (written with `leasedUntil`): they are
 * never published. `id` is a uuid expression over `from`'s rows; an event the relay published
 * meanwhile (its lease ran out) is left as it is.
 */
export function outboxSettle(select: { from: string; id: string }): string {
  return `UPDATE outbox_messages SET published_at = now(), claimed_until = NULL
           FROM ${select.from}
          WHERE outbox_messages.id = ${select.id} AND outbox_messages.published_at IS NULL`;
}

/** Delayed work written by a statement (see `TransactionContext.schedule`): SQL expressions over `from`, one task per row. */
export interface ScheduledTaskSelect {
  from: string;
  kind: string;
  /** A jsonb expression. */
  payload: string;
  dueAt: string;
  /** A text expression: at most one pending task per key; none: no key. */
  dedupeKey?: string;
  /** A jsonb expression; none: no headers. */
  headers?: string;
}

/** The INSERT ... SELECT that stores `select`'s tasks (the task runner is woken by `unitOfWork.run`, or finds them at its next poll). */
export function scheduledTaskInsert(select: ScheduledTaskSelect): string {
  return `INSERT INTO scheduled_tasks (id, kind, dedupe_key, payload, due_at, headers)
         SELECT gen_random_uuid(), ${select.kind}, ${select.dedupeKey ?? 'NULL::text'}, ${select.payload}, ${select.dueAt}, ${select.headers ?? `'{}'::jsonb`}
           FROM ${select.from}`;
}
