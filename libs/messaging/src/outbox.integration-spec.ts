import { DataSource } from 'typeorm';
import { CORRELATION_HEADER, withCorrelationId } from '@courier/logging';
import { createTestDatabase, messagingDataSource, messagingStack, TestDatabase, waitFor } from '@courier/testing';
import { InProcessBroker, InProcessTransport } from './in-process-transport';
import { outboxEvent, outboxEventsParam, outboxInsert, outboxInsertEvents, outboxSettle, scheduledTaskInsert } from './outbox';

/** The statement forms of the outbox verb: events written by a repository's own statement, on real PostgreSQL. */
describe('outbox fragments in a statement of the caller', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  const events = (note: string) => dataSource.query(`SELECT id, routing_key, payload, headers, claimed_until, published_at FROM outbox_messages WHERE payload->>'note' = $1 ORDER BY routing_key`, [note]);

  beforeAll(async () => {
    db = await createTestDatabase('outbox_sql');
    dataSource = await messagingDataSource(db.url);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it('outboxInsertEvents writes the events built in TypeScript once per row of `from`, and none when it has no row', async () => {
    const built = withCorrelationId('corr-1', () => [outboxEvent('probe.a', { note: 'ts' }), outboxEvent('probe.b', { note: 'ts' }, { extra: 'x' })]);
    const statement = (message: string) =>
      dataSource.query(
        `WITH effect AS (INSERT INTO effects (message_id, note) SELECT $1, 'ts' WHERE $1 <> 'none' RETURNING message_id),
              event AS (${outboxInsertEvents('$2', 'effect')})
         SELECT count(*)::int AS n FROM effect`,
        [message, outboxEventsParam(built)],
      );
    await statement('none');
    expect(await events('ts')).toEqual([]);
    await statement('m-1');
    const rows = await events('ts');
    expect(rows.map((row: { id: string; routing_key: string; payload: unknown; headers: unknown; claimed_until: Date | null }) => [row.id, row.routing_key, row.payload, row.headers, row.claimed_until])).toEqual([
      [built[0].id, 'probe.a', { note: 'ts' }, { [CORRELATION_HEADER]: 'corr-1' }, null],
      [built[1].id, 'probe.b', { note: 'ts' }, { [CORRELATION_HEADER]: 'corr-1', extra: 'x' }, null],
    ]);
  });

  it('outboxInsert builds the payload in SQL; a leased event is not sent until settled or its lease ends', async () => {
    const transport = new InProcessTransport([{ name: 'outbox.sql', bindings: ['probe.*'] }], new InProcessBroker());
    const sent: string[] = [];
    await transport.consume({ name: 'outbox.sql', bindings: ['probe.*'] }, async (message) => void sent.push(message.routingKey));
    const { relay, outbox } = messagingStack(dataSource, transport, 20);
    relay.start();
    try {
      const [{ id }] = await dataSource.query(
        `WITH source AS (SELECT 'sql' AS note), event AS (
           ${outboxInsert({ from: 'source', id: '$1::uuid', routingKey: `'probe.leased'`, payload: `jsonb_build_object('note', source.note)`, leasedUntil: `now() + interval '1 hour'` })}
         ) SELECT $1::uuid AS id`,
        ['6f1c1b8e-1111-4c3a-9a53-0a0a0a0a0a01'],
      );
      await dataSource.query(`WITH source AS (SELECT 'sql' AS note), event AS (${outboxInsert({ from: 'source', routingKey: `'probe.free'`, payload: `jsonb_build_object('note', source.note)` })}) SELECT 1`);
      outbox.committed(1);
      await waitFor('the unleased event sent', () => sent.includes('probe.free'));
      expect(sent).not.toContain('probe.leased');

      await dataSource.query(`WITH handled AS (SELECT $1::uuid AS event_id), settled AS (${outboxSettle({ from: 'handled', id: 'handled.event_id' })}) SELECT 1`, [id]);
      const [leased] = (await events('sql')).filter((row: { routing_key: string }) => row.routing_key === 'probe.leased');
      expect(leased.published_at).not.toBeNull();
      expect(leased.claimed_until).toBeNull();
      expect(await relay.backlog()).toBe(0);
    } finally {
      await relay.stop();
    }
  });

  it('scheduledTaskInsert stores one task per row, at most one per dedupe key', async () => {
    const insert = () =>
      dataSource.query(
        `WITH source AS (SELECT 'k-1' AS key), task AS (${scheduledTaskInsert({ from: 'source', kind: `'probe.task'`, dedupeKey: 'source.key', payload: `jsonb_build_object('key', source.key)`, dueAt: 'now()' })}) SELECT 1`,
      );
    await insert();
    await expect(insert()).rejects.toThrow(/duplicate key/);
    expect(await dataSource.query(`SELECT kind, payload, headers FROM scheduled_tasks WHERE dedupe_key = 'k-1'`)).toEqual([{ kind: 'probe.task', payload: { key: 'k-1' }, headers: {} }]);
  });
});
