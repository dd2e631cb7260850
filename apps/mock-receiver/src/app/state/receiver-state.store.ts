import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { rename } from 'node:fs/promises';
import { RECEIVER_CONFIG } from '../receiver.tokens';
import { ReceiverConfig, resolveDataFile } from '../receiver.config';
import { ReceiverState } from './receiver-state';
import { readStateFile, writeFileAtomic } from './state-file';

/**
 * Holds the receiver's state in memory and keeps the state file in step with it. Requests are
 * answered from memory; the file is written after the answer, coalescing bursts of changes.
 */
@Injectable()
export class ReceiverStore implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(ReceiverStore.name);
  readonly file: string;
  state: ReceiverState;
  private dirty = false;
  private saving?: Promise<void>;

  constructor(@Inject(RECEIVER_CONFIG) private readonly config: ReceiverConfig) {
    this.file = resolveDataFile(config);
    this.state = new ReceiverState(config.RECEIVER_HISTORY_LIMIT);
  }

  async onModuleInit(): Promise<void> {
    const read = await readStateFile(this.file);
    if (read.kind === 'loaded') {
      this.state = new ReceiverState(this.config.RECEIVER_HISTORY_LIMIT, read.snapshot);
      this.logger.log({ file: this.file, orders: read.snapshot.orders.length, webhooks: read.snapshot.webhooks.length }, 'receiver state loaded');
    } else if (read.kind === 'unreadable') {
      // Kept aside rather than overwritten, so nothing is lost silently.
      const aside = `${this.file}.unreadable-${Date.now()}`;
      await rename(this.file, aside).catch(() => undefined);
      this.logger.warn({ file: this.file, movedTo: aside, reason: read.reason }, 'receiver state file unreadable; starting empty');
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.flush();
  }

  /** Call after every change of `state`. */
  changed(): void {
    this.dirty = true;
    this.saving ??= this.save();
  }

  /** Resolves once every change made so far is on disk (or its write failed and was logged). */
  async flush(): Promise<void> {
    while (this.saving) await this.saving;
  }

  private async save(): Promise<void> {
    try {
      await new Promise((resolve) => setImmediate(resolve));
      while (this.dirty) {
        this.dirty = false;
        await writeFileAtomic(this.file, JSON.stringify(this.state.snapshot()));
      }
    } catch (error) {
      this.logger.error({ err: error, file: this.file }, 'could not write the receiver state file');
    } finally {
      this.saving = undefined;
    }
  }
}
