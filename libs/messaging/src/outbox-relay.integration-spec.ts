import * as amqp from 'amqplib';
import { randomUUID } from 'node:crypto';
import { DataSource, Logger as TypeOrmLogger } from 'typeorm';
import { appDataSourceOptions } from '@courier/persistence';
import {
  createTestDatabase,
  deleteTestTopology,
  describeWithBroker,
  messagingDataSource,
  silentLogger,
  testBrokerUrl,
  testNamespace,
  TestDatabase,
  waitFor,
} from '@courier/testing';
import { AmqpTransport } from './amqp-transport';
import { InProcessBroker, InProcessTransport } from './in-process-transport';
import { MESSAGING_ENTITIES } from './messaging.entities';
import { OutboxRelay } from './outbox-relay';
import { IncomingMessage } from './transport';

const queue = { name: 'relay-lease', bindings: ['lease.*'] };

/** Outbox rows written directly, oldest first: `createdAt` is a SQL expression so tests can set microseconds. */
async function insertRows(dataSource: DataSource, rows: Array<{ id?: string; createdAt?: string; claimedUntil?: string }>): Promise<string[]> {
  const ids: string[] = [];
  for (const row of rows) {
    const id = row.id ?? randomUUID();
    ids.push(id);
    await dataSource.query(
      `INSERT INTO outbox_messages (id, routing_key, payload, created_at, claimed_until)
       VALUES ($1::uuid, 'lease.item', jsonb_build_object('id', $1::text), ${row.createdAt ?? 'now()'}, ${row.claimedUntil ?? 'NULL'})`,
      [id],
    );
  }
  return ids;
}

async function rowsById(dataSource: DataSource): Promise<Map<string, { published: boolean; claimed: boolean; attempts: number; last_error: string | null; lease_ms: number | null }>> {
  const rows = await dataSource.query(
    `SELECT id, published_at IS NOT NULL AS published, claimed_until IS NOT NULL AS claimed, attempts, last_error,
            (EXTRACT(EPOCH FROM claimed_until - now()) * 1000)::float8 AS lease_ms
       FROM outbox_messages`,
  );
  return new Map(rows.map((row: { id: string }) => [row.id, row]));
}

/** A consumer on the in-process broker that records every delivery and holds each one while `hold` is set. */
async function recordingConsumer(broker: InProcessBroker) {
  const seen: string[] = [];
  let release: () => void = () => undefined;
  let gate: Promise<void> | undefined;
  await new InProcessTransport([queue], broker).consume(
    queue,
    async (message: IncomingMessage) => {
      seen.push(message.messageId);
      await gate;
    },
    { prefetch: 500 },
  );
  return {
    seen,
    hold: () => (gate = new Promise<void>((resolve) => (release = resolve))),
    release: () => {
      gate = undefined;
      release();
    },
  };
}

describe('OutboxRelay: lease, one claim and one mark per batch, no transaction held while publishing', () => {
  let db: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase('relay');
    dataSource = await messagingDataSource(db.url);
  });

  afterEach(async () => {
    await dataSource.query('DELETE FROM outbox_messages');
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  const relayOn = (broker: InProcessBroker, options: { batchSize?: number; leaseMs?: number; on?: DataSource } = {}) =>
    new OutboxRelay(options.on ?? dataSource, new InProcessTransport([queue], broker), silentLogger, { pollMs: 20, ...options });

  it('sends 2 statements to PostgreSQL per batch (claim, mark), 1 when there is nothing to send, 2 on a failed publish (claim, release)', async () => {
    const statements: string[] = [];
    const logger: TypeOrmLogger = {
      logQuery: (query) => void statements.push(query.replace(/\s+/g, ' ').trim()),
      logQueryError: () => undefined,
      logQuerySlow: () => undefined,
      logSchemaBuild: () => undefined,
      logMigration: () => undefined,
      log: () => undefined,
    };
    // A second data source on the same schema whose logger sees every statement sent, transaction control included.
    const counted = await new DataSource({ ...appDataSourceOptions({ schema: 'msgtest', url: db.url, entities: MESSAGING_ENTITIES, migrations: [], poolSize: 2 }), logger }).initialize();
    try {
      const broker = new InProcessBroker();
      const consumer = await recordingConsumer(broker);
      const relay = relayOn(broker, { on: counted });
      await insertRows(dataSource, [{}, {}, {}]);
      statements.length = 0; // the data source's own start-up queries

      expect(await relay.relayBatch()).toBe(3);
      expect(statements).toHaveLength(2);
      expect(statements[0]).toMatch(/^WITH claimed AS \( UPDATE outbox_messages SET claimed_until/);
      expect(statements[1]).toMatch(/^UPDATE outbox_messages SET published_at = now\(\)/);
      expect(consumer.seen).toHaveLength(3);

      statements.length = 0;
      expect(await relay.relayBatch()).toBe(0);
      expect(statements).toHaveLength(1);

      statements.length = 0;
      await insertRows(dataSource, [{}]);
      const refused = relayOn(new InProcessBroker(), { on: counted }); // a broker with no consumer for the queue refuses
      await expect(refused.relayBatch()).rejects.toThrow(/no consumer/);
      expect(statements).toHaveLength(2);
      expect(statements[1]).toMatch(/^UPDATE outbox_messages SET claimed_until = NULL/);
    } finally {
      await counted.destroy();
    }
  });

  it('never lets a second relay publish rows the first one has leased and is still publishing', async () => {
    const broker = new InProcessBroker();
    const consumer = await recordingConsumer(broker);
    const ids = await insertRows(
      dataSource,
      Array.from({ length: 30 }, (_, i) => ({ createdAt: `now() - interval '1 minute' + ${i} * interval '1 millisecond'` })),
    );
    const first = relayOn(broker, { batchSize: 10 });
    const second = relayOn(broker, { batchSize: 10 });

    consumer.hold(); // publishes stay unconfirmed (the in-process "confirm" is the handler finishing)
    const firstBatch = first.relayBatch();
    let secondBatch: Promise<number> | undefined;
    try {
      await waitFor('the first batch at the consumer', () => consumer.seen.length === 10);
      secondBatch = second.relayBatch();
      await waitFor('the second batch at the consumer', () => consumer.seen.length === 20);
      expect(new Set(consumer.seen).size).toBe(20);
      expect(consumer.seen).toEqual(ids.slice(0, 20));

      // While both publishes wait, their rows are leased for about the relay's lease, not published, and no transaction is open.
      const during = await rowsById(dataSource);
      const leased = ids.slice(0, 20).map((id) => during.get(id)!);
      expect(leased.every((row) => row.claimed && !row.published)).toBe(true);
      expect(leased.every((row) => row.lease_ms! > first.leaseMs - 5_000 && row.lease_ms! <= first.leaseMs)).toBe(true);
      const [{ open }] = await dataSource.query(
        `SELECT count(*)::int AS open FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`,
      );
      expect(open).toBe(0);
    } finally {
      consumer.release(); // a failure above must not leave the publishes (and their rows) hanging for the next test
    }
    expect(await Promise.all([firstBatch, secondBatch])).toEqual([10, 10]);
    expect(await first.relayBatch()).toBe(10);
    expect(await second.relayBatch()).toBe(0);
    expect(consumer.seen).toEqual(ids);
    const after = await rowsById(dataSource);
    expect(ids.every((id) => after.get(id)!.published && !after.get(id)!.claimed && after.get(id)!.attempts === 1)).toBe(true);
  });

  it('publishes rows whose lease ran out (a relay died mid-publish) and leaves rows whose lease holds', async () => {
    const broker = new InProcessBroker();
    const consumer = await recordingConsumer(broker);
    const [expired, free] = await insertRows(dataSource, [{ claimedUntil: `now() - interval '1 second'` }, {}]);
    const [held] = await insertRows(dataSource, [{ claimedUntil: `now() + interval '1 minute'` }]);

    expect(await relayOn(broker).relayBatch()).toBe(2);
    expect(consumer.seen).toEqual([expired, free]);
    const rows = await rowsById(dataSource);
    expect(rows.get(expired)).toMatchObject({ published: true, claimed: false });
    expect(rows.get(free)).toMatchObject({ published: true, claimed: false });
    expect(rows.get(held)).toMatchObject({ published: false, claimed: true });
  });

  it('releases the lease of a batch whose publish failed and records the error: the next batch sends it, not the lease end', async () => {
    const broker = new InProcessBroker();
    const ids = await insertRows(dataSource, [{}, {}, {}]);
    const relay = relayOn(broker); // the default lease: 30 s and more
    expect(relay.leaseMs).toBeGreaterThanOrEqual(30_000);

    // No consumer for the bound queue yet: the in-process broker refuses the publish, as a broker without a connection would.
    await expect(relay.relayBatch()).rejects.toThrow(/no consumer in this process for queue relay-lease/);
    const failed = await rowsById(dataSource);
    for (const id of ids) {
      expect(failed.get(id)).toMatchObject({ published: false, claimed: false, attempts: 1 });
      expect(failed.get(id)!.last_error).toMatch(/no consumer in this process/);
    }

    const consumer = await recordingConsumer(broker);
    expect(await relay.relayBatch()).toBe(3);
    expect(consumer.seen).toEqual(ids);
    const sent = await rowsById(dataSource);
    expect(ids.every((id) => sent.get(id)!.published && !sent.get(id)!.claimed && sent.get(id)!.attempts === 2)).toBe(true);
  });

  it('releases only what it still holds: a publish that failed after its lease ran out leaves the next relay\'s lease alone', async () => {
    const broker = new InProcessBroker();
    const consumer = await recordingConsumer(broker);
    const [id] = await insertRows(dataSource, [{}]);
    // Relay A's publish hangs past its short lease (as on a blocked broker connection), then fails.
    let fail!: (error: Error) => void;
    const hanging = { publish: () => new Promise<void>((_resolve, reject) => (fail = reject)) } as unknown as InProcessTransport;
    const a = new OutboxRelay(dataSource, hanging, silentLogger, { pollMs: 20, leaseMs: 100 });
    const aBatch = a.relayBatch();
    await waitFor('A claimed the row', async () => (await rowsById(dataSource)).get(id)!.claimed);
    await new Promise((resolve) => setTimeout(resolve, 200));

    // Relay B claims it after A's lease ran out, and its publish is still waiting for the consumer.
    consumer.hold();
    const b = relayOn(broker);
    let bBatch: Promise<number> | undefined;
    try {
      bBatch = b.relayBatch();
      await waitFor('B published to the consumer', () => consumer.seen.length === 1);
      fail(new Error('A gave up'));
      await expect(aBatch).rejects.toThrow('A gave up');
      // A's release did not touch B's lease: a third relay finds nothing to send.
      const row = (await rowsById(dataSource)).get(id)!;
      expect(row).toMatchObject({ claimed: true, published: false, attempts: 0, last_error: null });
      expect(row.lease_ms!).toBeGreaterThan(b.leaseMs - 5_000);
      expect(await relayOn(broker).relayBatch()).toBe(0);
    } finally {
      consumer.release();
    }
    expect(await bBatch).toBe(1);
    expect(consumer.seen).toEqual([id]);
    expect((await rowsById(dataSource)).get(id)).toMatchObject({ published: true, claimed: false, attempts: 1 });
  });

  it('retries a failed batch from its loop after the backoff, well before the lease would end', async () => {
    const broker = new InProcessBroker();
    const ids = await insertRows(dataSource, [{}, {}]);
    const relay = relayOn(broker, { leaseMs: 60_000 });
    relay.start();
    try {
      await waitFor('a failed attempt', async () => [...(await rowsById(dataSource)).values()].every((row) => row.attempts >= 1));
      const consumer = await recordingConsumer(broker);
      await waitFor('the retried batch', () => consumer.seen.length === 2, 10_000);
      expect(consumer.seen).toEqual(ids);
      await waitFor('marked published', async () => (await relay.backlog()) === 0);
    } finally {
      await relay.stop();
    }
  });

  it('publishes a batch in (created_at, id) order, to the microsecond, whatever order the claim returns rows in', async () => {
    const broker = new InProcessBroker();
    const consumer = await recordingConsumer(broker);
    // Pairs of rows share a created_at (then the id decides); pairs are 1 µs apart, all within one millisecond;
    // ids run against time and rows are inserted newest first, so neither id nor heap order is the answer.
    const ids = Array.from({ length: 40 }, () => randomUUID()).sort().reverse();
    const rows = ids.map((id, i) => ({ id, createdAt: `timestamptz '2025-01-01 12:00:00.000100+00' + ${Math.floor(i / 2)} * interval '1 microsecond'` }));
    await insertRows(dataSource, [...rows].reverse());
    const expected: string[] = (await dataSource.query('SELECT id FROM outbox_messages ORDER BY created_at, id')).map((row: { id: string }) => row.id);
    expect(expected).not.toEqual([...ids].sort());

    expect(await relayOn(broker).relayBatch()).toBe(40);
    expect(consumer.seen).toEqual(expected);
  });
});

describeWithBroker('OutboxRelay over RabbitMQ', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  const namespace = testNamespace('relay');
  let transport: AmqpTransport | undefined;

  beforeAll(async () => {
    db = await createTestDatabase('relay_amqp');
    dataSource = await messagingDataSource(db.url);
  });

  afterAll(async () => {
    await transport?.close();
    await deleteTestTopology(namespace, [queue.name]).catch(() => undefined);
    await dataSource?.destroy();
    await db?.drop();
  });

  it('releases the rows when the broker cannot be reached, then publishes them with confirms in (created_at, id) order once it can', async () => {
    transport = new AmqpTransport({
      url: testBrokerUrl(),
      topology: [queue],
      connectionName: `${namespace}:relay`,
      namespace,
      logger: silentLogger,
      publishWaitMs: 200,
      reconnectMinMs: 100,
    });
    const relay = new OutboxRelay(dataSource, transport, silentLogger, { pollMs: 20 });
    expect(relay.leaseMs).toBeGreaterThanOrEqual(2 * transport.publishTimeoutMs);
    const ids = await insertRows(
      dataSource,
      Array.from({ length: 50 }, (_, i) => ({ createdAt: `timestamptz '2025-01-01 12:00:00+00' + ${i} * interval '1 microsecond'` })),
    );

    // Not started: no connection, so the publish fails after publishWaitMs.
    await expect(relay.relayBatch()).rejects.toThrow(/broker unavailable/);
    const [released] = await dataSource.query(
      `SELECT count(*)::int AS n FROM outbox_messages WHERE claimed_until IS NULL AND published_at IS NULL AND attempts = 1 AND last_error = 'broker unavailable'`,
    );
    expect(released.n).toBe(50);

    transport.start();
    await waitFor('connection', () => transport!.isReady());
    expect(await relay.relayBatch()).toBe(50);
    expect(await relay.backlog()).toBe(0);

    const connection = await amqp.connect(testBrokerUrl());
    try {
      const channel = await connection.createChannel();
      const received: string[] = [];
      for (let message = await channel.get(`${namespace}.${queue.name}`, { noAck: true }); message; message = await channel.get(`${namespace}.${queue.name}`, { noAck: true })) {
        received.push(String(message.properties.messageId));
      }
      expect(received).toEqual(ids);
    } finally {
      await connection.close();
    }
  });
});
