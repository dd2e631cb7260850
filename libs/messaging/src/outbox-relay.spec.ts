import { silentLogger } from '@courier/testing';
import { AmqpTransport } from './amqp-transport';
import { InProcessBroker, InProcessTransport } from './in-process-transport';
import { DEFAULT_OUTBOX_LEASE_MS, OutboxRelay } from './outbox-relay';

// The relay's constructor touches neither the database nor the broker: the lease is derived from the transport alone.
const noDatabase = undefined as never;
const amqpTransport = (timeouts: { publishWaitMs?: number; confirmTimeoutMs?: number }) =>
  new AmqpTransport({ url: 'amqp://127.0.0.1:1', topology: [], connectionName: 'lease-spec', logger: silentLogger, ...timeouts });

describe('OutboxRelay lease', () => {
  it('is at least twice the longest AMQP publish, and never under the default', () => {
    expect(new OutboxRelay(noDatabase, amqpTransport({}), silentLogger, { pollMs: 100 }).leaseMs).toBe(DEFAULT_OUTBOX_LEASE_MS);
    const slow = amqpTransport({ publishWaitMs: 5_000, confirmTimeoutMs: 60_000 });
    expect(slow.publishTimeoutMs).toBe(65_000);
    expect(new OutboxRelay(noDatabase, slow, silentLogger, { pollMs: 100 }).leaseMs).toBeGreaterThanOrEqual(2 * 65_000);
  });

  it('is the default for a transport that does not bound its publish, and the option when given', () => {
    const inProcess = new InProcessTransport([], new InProcessBroker());
    expect(new OutboxRelay(noDatabase, inProcess, silentLogger, { pollMs: 100 }).leaseMs).toBe(DEFAULT_OUTBOX_LEASE_MS);
    expect(new OutboxRelay(noDatabase, inProcess, silentLogger, { pollMs: 100, leaseMs: 5_000 }).leaseMs).toBe(5_000);
  });
});
