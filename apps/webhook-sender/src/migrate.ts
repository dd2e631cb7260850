import 'reflect-metadata';
import { runMigrationsCommand } from '@courier/persistence';
import { PERSISTENCE } from './app/persistence';

// Runs this app's migrations alone (Kubernetes Job / compose one-shot), then exits.
// Needs only DATABASE_URL: the app's keys and tokens are checked when the app starts.
void runMigrationsCommand(PERSISTENCE);
