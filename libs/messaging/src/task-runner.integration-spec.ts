import { DataSource } from 'typeorm';
import { createTestDatabase, messagingDataSource, silentLogger, TestDatabase, waitFor } from '@courier/testing';
import { InProcessBroker, InProcessTransport } from './in-process-transport';
import { OutboxRelay } from './outbox-relay';
import { ScheduledTask, TaskRunner } from './task-runner';
import { UnitOfWork } from './unit-of-work';

describe('durable delayed work and the outbox relay on PostgreSQL', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  const runners: TaskRunner[] = [];

  function runner(handler: (task: ScheduledTask) => Promise<void | { rescheduleAt: Date }>, options: { leaseMs?: number } = {}) {
    const tasks = new TaskRunner(dataSource, silentLogger, { pollMs: 30, leaseMs: options.leaseMs, retryDelayMs: () => 50 });
    tasks.register('probe', handler);
    runners.push(tasks);
    return tasks;
  }

  const unitOfWork = () => new UnitOfWork(dataSource, { onEnqueued: () => undefined, onScheduled: () => runners.forEach((r) => r.nudge()) });

  beforeAll(async () => {
    db = await createTestDatabase('tasks');
    dataSource = await messagingDataSource(db.url);
  });

  afterEach(async () => {
    await Promise.all(runners.splice(0).map((r) => r.stop()));
    await dataSource.query('DELETE FROM scheduled_tasks');
    await dataSource.query('DELETE FROM outbox_messages');
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it('runs a task at its due time, not before, and deletes it', async () => {
    const ran: number[] = [];
    const tasks = runner(async () => void ran.push(Date.now()));
    tasks.start();
    const due = Date.now() + 400;
    await unitOfWork().run((tx) => tx.schedule({ kind: 'probe', dueAt: new Date(due), payload: { n: 1 } }));
    await waitFor('task run', () => ran.length === 1, 5_000, 10);
    expect(ran[0]).toBeGreaterThanOrEqual(due - 5);
    const [{ n }] = await dataSource.query('SELECT count(*)::int AS n FROM scheduled_tasks');
    expect(n).toBe(0);
  });

  it('keeps a task across a restart of the runner', async () => {
    const first = runner(async () => undefined);
    first.start();
    await unitOfWork().run((tx) => tx.schedule({ kind: 'probe', dueAt: new Date(Date.now() + 500), payload: { kept: true } }));
    await first.stop();
    const ran: unknown[] = [];
    const second = runner(async (task) => void ran.push(task.payload));
    second.start();
    await waitFor('task after restart', () => ran.length === 1, 5_000);
    expect(ran).toEqual([{ kept: true }]);
  });

  it('never runs one task on two replicas at once, and runs each task exactly once', async () => {
    const runs = new Map<string, number>();
    const handler = async (task: ScheduledTask) => {
      const id = (task.payload as { id: string }).id;
      runs.set(id, (runs.get(id) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, 5));
    };
    await unitOfWork().run(async (tx) => {
      for (let i = 0; i < 200; i += 1) await tx.schedule({ kind: 'probe', dueAt: new Date(), payload: { id: `t${i}` } });
    });
    const replicas = [runner(handler), runner(handler), runner(handler)];
    replicas.forEach((r) => r.start());
    await waitFor('all tasks', () => runs.size === 200, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
  });

  it('retries a failing task with backoff and honours a reschedule', async () => {
    let attempts = 0;
    const tasks = runner(async (task) => {
      attempts += 1;
      if (task.attempt < 3) throw new Error('transient');
      if (task.attempt === 3) return { rescheduleAt: new Date(Date.now() + 100) };
    });
    tasks.start();
    await unitOfWork().run((tx) => tx.schedule({ kind: 'probe', dueAt: new Date(), payload: {} }));
    await waitFor('task done', async () => (await dataSource.query('SELECT count(*)::int AS n FROM scheduled_tasks'))[0].n === 0, 10_000);
    expect(attempts).toBe(4);
  });

  it('takes over a task whose runner died holding its lease, once the lease ends', async () => {
    await unitOfWork().run((tx) => tx.schedule({ kind: 'probe', dueAt: new Date(), payload: {} }));
    // A runner that claimed the task and then "died": the lease is set, nothing will finish it.
    await dataSource.query(`UPDATE scheduled_tasks SET lease_until = now() + interval '300 milliseconds', attempts = 1`);
    const ran: number[] = [];
    const tasks = runner(async (task) => void ran.push(task.attempt));
    tasks.start();
    await waitFor('takeover', () => ran.length === 1, 5_000);
    expect(ran).toEqual([2]);
  });

  it('deduplicates scheduled work by key', async () => {
    const first = await unitOfWork().run((tx) => tx.schedule({ kind: 'probe', dueAt: new Date(Date.now() + 60_000), payload: {}, dedupeKey: 'order-1' }));
    const second = await unitOfWork().run((tx) => tx.schedule({ kind: 'probe', dueAt: new Date(Date.now() + 60_000), payload: {}, dedupeKey: 'order-1' }));
    expect([first, second]).toEqual([true, false]);
  });

  it('publishes every outbox row exactly once with several relays running at once', async () => {
    const queue = { name: 'relay-test', bindings: ['relay.*'] };
    const broker = new InProcessBroker();
    const seen = new Map<string, number>();
    const consumerSide = new InProcessTransport([queue], broker);
    await consumerSide.consume(queue, async (message) => void seen.set(message.messageId, (seen.get(message.messageId) ?? 0) + 1));
    const relays = [0, 1, 2].map(() => new OutboxRelay(dataSource, new InProcessTransport([queue], broker), silentLogger, { pollMs: 20, batchSize: 25 }));
    const uow = unitOfWork();
    for (let i = 0; i < 300; i += 1) await uow.run((tx) => tx.publish('relay.item', { i }));
    relays.forEach((relay) => relay.start());
    await waitFor('all published', async () => (await relays[0].backlog()) === 0, 20_000);
    await Promise.all(relays.map((relay) => relay.stop()));
    expect(seen.size).toBe(300);
    expect([...seen.values()].every((count) => count === 1)).toBe(true);
  });
});
