import './tracing';
import 'reflect-metadata';
import { reportStartupFailure } from '@courier/http';
import { createReceiverApp, loadReceiverConfig } from './receiver-app';

async function main(): Promise<void> {
  try {
    const config = loadReceiverConfig(process.env);
    const app = await createReceiverApp(config);
    await app.listen(config.PORT, '0.0.0.0');
  } catch (error) {
    reportStartupFailure(error);
    process.exitCode = 1;
  }
}

void main();
