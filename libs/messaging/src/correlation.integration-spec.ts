import { Writable } from 'node:stream';
import { DataSource } from 'typeorm';
import { createLogger, CORRELATION_HEADER, withCorrelationId } from '@courier/logging';
import { createTestDatabase, messagingDataSource, messagingStack, TestDatabase, waitFor } from '@courier/testing';
import { InProcessBroker, InProcessTransport } from './in-process-transport';

/** The correlation id of a request travels through the outbox and the task table to the work it causes. */
describe('correlation id from a unit of work to its consumers and tasks', () => {
  let db: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase('correlation');
    dataSource = await messagingDataSource(db.url);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it('is in the outbox and task headers, and on the log lines of the consumer and the task handler', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = createLogger({
      service: 'test',
      destination: new Writable({
        write(chunk, _encoding, callback) {
          lines.push(...String(chunk).split('\n').filter(Boolean).map((line) => JSON.parse(line)));
          callback();
        },
      }),
    });
    const queue = { name: 'corr.orders', bindings: ['corr.*'] };
    const transport = new InProcessTransport([queue], new InProcessBroker());
    await transport.consume(queue, async (message) => logger.info({ messageId: message.messageId }, 'consumed'));
    const { relay, tasks, unitOfWork } = messagingStack(dataSource, transport);
    tasks.register('corr.task', async () => void logger.info('task ran'));
    relay.start();
    tasks.start();
    try {
      const messageId = await withCorrelationId('abc', () =>
        unitOfWork.run(async (tx) => {
          await tx.schedule({ kind: 'corr.task', dueAt: new Date(), payload: {} });
          return tx.publish('corr.created', { n: 1 });
        }),
      );
      await waitFor('consumer and task', () => lines.some((line) => line.msg === 'consumed') && lines.some((line) => line.msg === 'task ran'));

      const [outboxRow] = await dataSource.query('SELECT headers FROM outbox_messages WHERE id = $1', [messageId]);
      expect(outboxRow.headers).toEqual({ [CORRELATION_HEADER]: 'abc' });
      expect(lines.find((line) => line.msg === 'consumed')).toMatchObject({ messageId, correlationId: 'abc' });
      expect(lines.find((line) => line.msg === 'task ran')).toMatchObject({ correlationId: 'abc' });
    } finally {
      await tasks.stop();
      await relay.stop();
      await transport.close();
    }
  });
});
