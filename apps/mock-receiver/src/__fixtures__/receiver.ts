import { INestApplication } from '@nestjs/common';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createReceiverApp, ReceiverConfig } from '../receiver-app';
import { ReceiverStore } from '../app/state/receiver-state.store';

export interface TestReceiver {
  app: INestApplication;
  dataFile: string;
  /** Set when started with listen: true. */
  baseUrl?: string;
  /** Waits until the state file holds every change so far. */
  flush(): Promise<void>;
}

/** A private directory for one test file's state files. */
export async function makeDataDir(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'mock-receiver-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Creates the receiver as a launcher would, quiet, on 127.0.0.1 when listening. */
export async function startReceiver(config: Partial<ReceiverConfig>, options: { listen?: boolean } = {}): Promise<TestReceiver> {
  const app = await createReceiverApp({ LOG_LEVEL: 'silent', ...config });
  let baseUrl: string | undefined;
  if (options.listen) {
    await app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  } else {
    await app.init();
  }
  const store = app.get(ReceiverStore);
  return { app, dataFile: store.file, baseUrl, flush: () => store.flush() };
}
