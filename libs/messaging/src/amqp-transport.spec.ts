import { captureLogLines, waitFor } from '@courier/testing';
import { createLogger } from '@courier/logging';
import { AmqpTransport } from './amqp-transport';

describe('AmqpTransport logging', () => {
  it('its lines carry each key once under the messaging logger (component messaging, transport amqp)', async () => {
    const captured = captureLogLines();
    const logger = createLogger({ service: 'test', level: 'info', destination: captured.destination }).child({ component: 'messaging' });
    // Nothing listens on port 1: the connection fails and the transport says so.
    const transport = new AmqpTransport({ url: 'amqp://guest:guest@127.0.0.1:1', topology: [], connectionName: 'test', logger, reconnectMinMs: 10_000, reconnectMaxMs: 10_000 });
    transport.start();
    try {
      const line = await waitFor('the connection failure line', () => captured.lines.find((entry) => entry.includes('broker connection failed')) ?? '');
      expect(line.match(/"component":/g)).toHaveLength(1);
      expect(JSON.parse(line)).toMatchObject({ component: 'messaging', transport: 'amqp' });
    } finally {
      await transport.close();
    }
  });
});
