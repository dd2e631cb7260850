import './tracing';
import 'reflect-metadata';
import { runService } from '@courier/http';
import { AppModule } from './app/app.module';
import { DispatcherConfig } from './app/status-dispatcher.config';
import { SERVICE_DESCRIPTION } from './app/openapi';

void runService<DispatcherConfig>(AppModule, { ...SERVICE_DESCRIPTION, port: (config) => config.STATUS_DISPATCHER_PORT });
