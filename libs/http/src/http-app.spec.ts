import { Logger, Module } from '@nestjs/common';
import { Writable } from 'node:stream';
import { LoggingModule } from '@courier/logging';
import { createHttpApp } from './http-app';

describe('createHttpApp logging', () => {
  it('writes the lines of `new Logger(...)` to the app logger (the start-up buffer is flushed)', async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _encoding, callback) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        callback();
      },
    });
    @Module({ imports: [LoggingModule.forRoot({ service: 'probe', destination, level: 'info', pretty: false })] })
    class ProbeModule {}
    const app = await createHttpApp(ProbeModule, { title: 'probe' });
    try {
      new Logger('Probe').warn({ deliveryId: 'd-1' }, 'written at once');
      expect(lines.map((line) => JSON.parse(line))).toContainEqual(expect.objectContaining({ level: 40, context: 'Probe', deliveryId: 'd-1', msg: 'written at once' }));
      expect((Logger as unknown as { isBufferAttached: boolean }).isBufferAttached).toBe(false);
    } finally {
      await app.close();
    }
  });
});
