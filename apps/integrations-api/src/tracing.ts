// Imported first by main.ts: the instrumentations must be in place before express, pg or Nest load.
import { startTracing } from '@courier/observability/tracing';

startTracing('integrations-api');
