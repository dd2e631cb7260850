// What the one-machine composer (apps/local-suite) needs to run this app in its process.
export { AppModule, createAppModule } from './app/app.module';
export { IntakeConfig } from './app/intake-api.config';
export { SERVICE_DESCRIPTION } from './app/openapi';
export { PERSISTENCE } from './app/persistence';
