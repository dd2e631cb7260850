import 'reflect-metadata';
import { runMigrationsCommand } from '@courier/persistence';
import { PERSISTENCE } from './app/persistence';
import { WebhookSenderConfig } from './app/webhook-sender.config';

// Runs this app's migrations alone (Kubernetes Job / compose one-shot), then exits.
void runMigrationsCommand(PERSISTENCE, WebhookSenderConfig);
