import * as amqp from 'amqplib';
import type { ChannelModel, ConfirmChannel, GetMessage } from 'amqplib';
import { topologyNames } from '../amqp-topology';
import { deadLetterQueueName } from '../transport';

/** A dead-lettered message as an operator sees it. */
export interface DeadLetter {
  messageId: string;
  /** The routing key it was first published with (the one a replay uses). */
  routingKey: string | undefined;
  /** Why and when the queue gave up on it, from the broker's x-death record. */
  reason: string | undefined;
  deadLetteredAt: string | undefined;
  /** Deliveries the consumer queue made before giving up (x-death count is 1 per dead-lettering). */
  timesDeadLettered: number;
  correlationId: string | undefined;
  publishedAt: string | undefined;
  headers: Record<string, unknown>;
  payload: unknown;
  size: number;
}

export interface ReplayReport {
  replayed: string[];
  discarded: string[];
  /** Requested ids not among the messages looked at. */
  notFound: string[];
  /** Messages that could not be replayed (left in the dead-letter queue). */
  skipped: Array<{ messageId: string; reason: string }>;
}

/** Headers the broker adds on dead-lettering; a replayed message starts clean. */
const BROKER_HEADERS = /^x-(death|first-death-|last-death-|delivery-count)/;

interface XDeath {
  queue?: string;
  reason?: string;
  count?: number;
  time?: { value?: number } | number | Date;
  'routing-keys'?: string[];
}

/**
 * Operator access to one consumer queue's dead-letter queue (`<queue>.dead`): look at the messages,
 * republish them to the events exchange with their original routing key and message id (the
 * consumers are idempotent), or drop them.
 *
 * Looking never consumes: messages are fetched unacknowledged and go back when the channel closes.
 * A replay acknowledges a dead letter only after the broker confirmed its republication, so a crash
 * in between replays it twice rather than losing it.
 */
export class DeadLetterQueue {
  private constructor(
    private readonly connection: ChannelModel,
    private readonly namespace: string | undefined,
    /** The consumer queue, with the namespace prefix. */
    readonly queue: string,
  ) {}

  /** `queue` is the consumer queue's name as in the code (`webhook-sender.order-events`), without the namespace. */
  static async open(options: { url: string; namespace?: string; queue: string }): Promise<DeadLetterQueue> {
    const connection = await amqp.connect(options.url, { clientProperties: { connection_name: 'dead-letters-cli' }, timeout: 5_000 });
    connection.on('error', () => undefined);
    const queue = topologyNames(options.namespace).queue({ name: options.queue, bindings: [] }).name;
    return new DeadLetterQueue(connection, options.namespace, queue);
  }

  get deadLetterQueue(): string {
    return deadLetterQueueName(this.queue);
  }

  async close(): Promise<void> {
    await this.connection.close().catch(() => undefined);
  }

  /** How many messages the dead-letter queue holds (fails when it does not exist). */
  async count(): Promise<number> {
    return this.withChannel(async (channel) => (await channel.checkQueue(this.deadLetterQueue)).messageCount);
  }

  /** Up to `limit` dead letters, left in the queue. */
  async list(limit: number): Promise<DeadLetter[]> {
    return this.withChannel(async (channel) => (await this.fetch(channel, limit)).map((raw) => this.describe(raw)));
  }

  /**
   * Replays (or, with `discard`, drops) the dead letters whose message ids are in `ids`, or all of
   * them with `ids: 'all'`, looking at no more than `limit` messages, and never at messages
   * dead-lettered after the call began (a replay that fails again comes back later, not in a loop).
   */
  async settle(selection: { ids: string[] | 'all'; limit: number; discard?: boolean }): Promise<ReplayReport> {
    return this.withChannel(async (channel) => {
      const present = (await channel.checkQueue(this.deadLetterQueue)).messageCount;
      const wanted = selection.ids === 'all' ? undefined : new Set(selection.ids);
      const report: ReplayReport = { replayed: [], discarded: [], notFound: [], skipped: [] };
      const seen = new Set<string>();
      // Republished but not yet confirmed: acknowledged (removed) only once the broker confirmed them.
      let unconfirmed: Array<{ raw: GetMessage; messageId: string }> = [];
      const confirmBatch = async () => {
        if (unconfirmed.length === 0) return;
        await channel.waitForConfirms();
        for (const { raw, messageId } of unconfirmed) {
          channel.ack(raw);
          report.replayed.push(messageId);
        }
        unconfirmed = [];
      };
      for (const raw of await this.fetch(channel, Math.min(present, selection.limit))) {
        const letter = this.describe(raw);
        seen.add(letter.messageId);
        if (wanted && !wanted.has(letter.messageId)) continue;
        if (selection.discard) {
          channel.ack(raw);
          report.discarded.push(letter.messageId);
          continue;
        }
        if (!letter.routingKey || !letter.messageId) {
          report.skipped.push({ messageId: letter.messageId, reason: 'no original routing key or message id in the dead letter' });
          continue;
        }
        channel.publish(topologyNames(this.namespace).events, letter.routingKey, raw.content, {
          persistent: true,
          messageId: letter.messageId,
          contentType: raw.properties.contentType ?? 'application/json',
          timestamp: raw.properties.timestamp,
          headers: { ...replayHeaders(raw.properties.headers), 'x-replayed-from': this.deadLetterQueue },
        });
        unconfirmed.push({ raw, messageId: letter.messageId });
        if (unconfirmed.length >= 100) await confirmBatch();
      }
      await confirmBatch();
      if (wanted) report.notFound = [...wanted].filter((id) => !seen.has(id));
      return report;
    });
  }

  /** Messages fetched unacknowledged; whatever is not acked returns to the queue when the channel closes. */
  private async fetch(channel: ConfirmChannel, limit: number): Promise<GetMessage[]> {
    const fetched: GetMessage[] = [];
    while (fetched.length < limit) {
      const raw = await channel.get(this.deadLetterQueue, { noAck: false });
      if (!raw) break;
      fetched.push(raw);
    }
    return fetched;
  }

  private async withChannel<T>(work: (channel: ConfirmChannel) => Promise<T>): Promise<T> {
    const channel = await this.connection.createConfirmChannel();
    channel.on('error', () => undefined);
    try {
      return await work(channel);
    } finally {
      await channel.close().catch(() => undefined);
    }
  }

  private describe(raw: GetMessage): DeadLetter {
    const headers = raw.properties.headers ?? {};
    const deaths = (Array.isArray(headers['x-death']) ? headers['x-death'] : []) as XDeath[];
    const death = deaths.find((entry) => entry.queue === this.queue) ?? deaths[0];
    const text = raw.content.toString('utf8');
    let payload: unknown = text;
    try {
      payload = JSON.parse(text);
    } catch {
      // shown as text: a message no consumer could parse is a reason to dead-letter it
    }
    return {
      messageId: String(raw.properties.messageId ?? ''),
      routingKey: death?.['routing-keys']?.[0],
      reason: death?.reason,
      deadLetteredAt: timeOf(death?.time),
      timesDeadLettered: Number(death?.count ?? 0),
      correlationId: typeof headers['x-correlation-id'] === 'string' ? headers['x-correlation-id'] : undefined,
      publishedAt: typeof raw.properties.timestamp === 'number' ? new Date(raw.properties.timestamp * 1000).toISOString() : undefined,
      headers: replayHeaders(headers),
      payload,
      size: raw.content.length,
    };
  }
}

function replayHeaders(headers: Record<string, unknown> | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(headers ?? {}).filter(([name]) => !BROKER_HEADERS.test(name)));
}

function timeOf(time: XDeath['time']): string | undefined {
  if (time instanceof Date) return time.toISOString();
  const seconds = typeof time === 'number' ? time : time?.value;
  return typeof seconds === 'number' ? new Date(seconds * 1000).toISOString() : undefined;
}
