import * as amqp from 'amqplib';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { deadLetterQueueName, topologyNames } from '@courier/messaging';

/**
 * Broker the integration tests use: TEST_RABBITMQ_URL (set by tools/run-tests.mjs, which removes
 * RABBITMQ_URL so that apps started by tests never pick a shared default), else RABBITMQ_URL, else
 * the local RabbitMQ of CI and dev machines.
 */
export function testBrokerUrl(): string {
  return process.env.TEST_RABBITMQ_URL || process.env.RABBITMQ_URL || 'amqp://guest:guest@127.0.0.1:5672';
}

/** Whether the broker tests run: tools/run-tests.mjs probes the broker and sets BROKER_TESTS. */
export function brokerTestsEnabled(): boolean {
  return process.env.BROKER_TESTS !== 'skip';
}

/** `describe` for tests that need RabbitMQ; skipped (and said so once by the runner) without one. */
export const describeWithBroker: jest.Describe = brokerTestsEnabled() ? describe : describe.skip;

/** A namespace for exchange and queue names, so test runs never consume each other's messages. */
export function testNamespace(prefix = 't'): string {
  // The shape tools/broker/cleanup.mjs recognises: the test runner deletes its run's namespaces
  // (TEST_RUN_ID) when it ends and any namespace older than an hour when it starts.
  const run = /^[0-9a-z]{4,12}$/.test(process.env.TEST_RUN_ID ?? '') ? `-r${process.env.TEST_RUN_ID}` : '';
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}${run}`;
}

/** True when something accepts TCP connections at host:port within the timeout. */
export function isPortOpen(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Deletes a test namespace's exchanges, queues and dead-letter queues (`queues`: names without the prefix). */
export async function deleteTestTopology(namespace: string, queues: string[]): Promise<void> {
  const connection = await amqp.connect(testBrokerUrl());
  try {
    const channel = await connection.createChannel();
    const names = topologyNames(namespace);
    for (const queue of queues) {
      const name = names.queue({ name: queue, bindings: [] }).name;
      await channel.deleteQueue(name);
      await channel.deleteQueue(deadLetterQueueName(name));
    }
    await channel.deleteExchange(names.events);
    await channel.deleteExchange(names.deadLetter);
  } finally {
    await connection.close();
  }
}
