import './tracing';
import 'reflect-metadata';
import { runService } from '@courier/http';
import { AppModule } from './app/app.module';
import { IntakeConfig } from './app/intake-api.config';
import { SERVICE_DESCRIPTION } from './app/openapi';

void runService<IntakeConfig>(AppModule, { ...SERVICE_DESCRIPTION, port: (config) => config.INTAKE_PORT });
