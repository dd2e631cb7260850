import './tracing';
import 'reflect-metadata';
import { runService } from '@courier/http';
import { AppModule } from './app/app.module';
import { IntegrationsConfig } from './app/integrations-api.config';
import { SERVICE_DESCRIPTION } from './app/openapi';

void runService<IntegrationsConfig>(AppModule, { ...SERVICE_DESCRIPTION, port: (config) => config.POS_PORT });
