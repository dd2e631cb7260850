import './tracing';
import 'reflect-metadata';
import { runService } from '@courier/http';
import { AppModule } from './app/app.module';
import { WebhookSenderConfig } from './app/webhook-sender.config';
import { SERVICE_DESCRIPTION } from './app/openapi';

void runService<WebhookSenderConfig>(AppModule, { ...SERVICE_DESCRIPTION, port: (config) => config.WEBHOOK_SENDER_PORT });
