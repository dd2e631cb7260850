import * as amqp from 'amqplib';
import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { describeWithBroker, testBrokerUrl } from '@courier/testing';

const CLI = path.join(__dirname, 'cleanup.mjs');
const rabbitmqctlWorks = spawnSync('rabbitmqctl', ['-q', 'list_vhosts'], { timeout: 60_000 }).status === 0;
// CI runs on a machine whose broker rabbitmqctl can reach; elsewhere the cleanup says it skipped.
const describeWithCtl = rabbitmqctlWorks || process.env.CI === 'true' ? describeWithBroker : describe.skip;

/** Passive declare on a channel of its own (a failed one closes the channel with a 404). */
async function exists(connection: amqp.ChannelModel, kind: 'queue' | 'exchange', name: string): Promise<boolean> {
  const channel = await connection.createChannel();
  channel.on('error', () => undefined);
  try {
    if (kind === 'queue') await channel.checkQueue(name);
    else await channel.checkExchange(name);
    await channel.close();
    return true;
  } catch (error) {
    if (/NOT_FOUND/.test(String(error))) return false;
    throw error;
  }
}

describeWithCtl('broker cleanup against the real RabbitMQ', () => {
  it("deletes one run's quorum queues and exchanges and nothing else", async () => {
    const stamp = Date.now().toString(36);
    const mine = `t-${stamp}-c1ea00-rc1ea0001`;
    const theirs = `t-${stamp}-c1ea01-rc1ea0002`;
    const connection = await amqp.connect(testBrokerUrl());
    try {
      const channel = await connection.createChannel();
      for (const ns of [mine, theirs]) {
        await channel.assertExchange(`${ns}.courier.events`, 'topic', { durable: true });
        for (const queue of ['a', 'a.dead']) await channel.assertQueue(`${ns}.${queue}`, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
      }

      const output = execFileSync(process.execPath, [CLI, '--run', 'c1ea0001'], { encoding: 'utf8', timeout: 120_000 });
      expect(output).toContain('deleted 2 queues and 1 exchanges');

      for (const queue of [`${mine}.a`, `${mine}.a.dead`]) expect(await exists(connection, 'queue', queue)).toBe(false);
      expect(await exists(connection, 'exchange', `${mine}.courier.events`)).toBe(false);
      for (const queue of [`${theirs}.a`, `${theirs}.a.dead`]) expect(await exists(connection, 'queue', queue)).toBe(true);
      expect(await exists(connection, 'exchange', `${theirs}.courier.events`)).toBe(true);
    } finally {
      execFileSync(process.execPath, [CLI, '--run', 'c1ea0002'], { encoding: 'utf8', timeout: 120_000 });
      await connection.close();
    }
  });

  it("deletes one namespace and leaves its run's other namespaces (--namespace)", async () => {
    const stamp = Date.now().toString(36);
    const mine = `t-${stamp}-c1ea02-rc1ea0003`;
    const sibling = `t-${stamp}-c1ea03-rc1ea0003`;
    const connection = await amqp.connect(testBrokerUrl());
    try {
      const channel = await connection.createChannel();
      for (const ns of [mine, sibling]) {
        await channel.assertExchange(`${ns}.courier.events`, 'topic', { durable: true });
        await channel.assertQueue(`${ns}.a`, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
      }

      const output = execFileSync(process.execPath, [CLI, '--namespace', mine], { encoding: 'utf8', timeout: 120_000 });
      expect(output).toContain('deleted 1 queues and 1 exchanges');
      expect(await exists(connection, 'queue', `${mine}.a`)).toBe(false);
      expect(await exists(connection, 'exchange', `${mine}.courier.events`)).toBe(false);
      expect(await exists(connection, 'queue', `${sibling}.a`)).toBe(true);
      expect(await exists(connection, 'exchange', `${sibling}.courier.events`)).toBe(true);
    } finally {
      execFileSync(process.execPath, [CLI, '--run', 'c1ea0003'], { encoding: 'utf8', timeout: 120_000 });
      await connection.close();
    }
  });
});
