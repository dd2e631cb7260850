import { INestApplication, Type } from '@nestjs/common';
import { createHttpApp } from '@courier/http';
import { ReceiverModule } from './app/receiver.module';
import { loadReceiverConfig, normaliseReceiverConfig, ReceiverConfig, resolveDataFile } from './app/receiver.config';

export { loadReceiverConfig, normaliseReceiverConfig, ReceiverConfig, resolveDataFile };

/**
 * Creates the reference receiver (API, webhooks, dashboard) without listening, for main.ts and for
 * an in-process launcher: `const app = await createReceiverApp(config); await app.listen(config.PORT)`.
 * `config` may be a loadReceiverConfig() result or a plain object of the same fields (validated
 * again here, defaults filled in). Close it with `app.close()` (writes the state file).
 */
export async function createReceiverApp(config: ReceiverConfig | Partial<ReceiverConfig>): Promise<INestApplication> {
  const validated = normaliseReceiverConfig(config);
  // createHttpApp is typed for static modules; NestFactory accepts the dynamic one as well.
  return createHttpApp(ReceiverModule.forRoot(validated) as unknown as Type<unknown>, {
    title: 'Reference receiver ({mock_url})',
    description: 'Sends test orders to the intake endpoint, receives the status and cancel webhooks, serves the dashboard at /.',
  });
}
