import { DynamicModule, Global, Module } from '@nestjs/common';
import { SecretBox } from '@courier/crypto';
import { HostResolver, systemHostResolver } from '@courier/http';
import { PlatformRegistry } from '@courier/platforms';
import { IntegrationsConfig } from '../app/integrations-api.config';
import { HOST_RESOLVER } from './tokens';
import { WebhookUrlPolicy } from './webhook-url.policy';

export interface CommonOptions {
  hostResolver?: HostResolver;
}

/** What every feature shares: the secret box, the platform registry, the webhook URL policy. */
@Global()
@Module({})
export class CommonModule {
  static forRoot(options: CommonOptions = {}): DynamicModule {
    return {
      module: CommonModule,
      providers: [
        { provide: SecretBox, inject: [IntegrationsConfig], useFactory: (config: IntegrationsConfig) => SecretBox.fromKeyList(config.SECRETS_ENCRYPTION_KEYS) },
        { provide: PlatformRegistry, useFactory: () => PlatformRegistry.fromEnv(process.env) },
        { provide: HOST_RESOLVER, useValue: options.hostResolver ?? systemHostResolver },
        WebhookUrlPolicy,
      ],
      exports: [SecretBox, PlatformRegistry, HOST_RESOLVER, WebhookUrlPolicy],
    };
  }
}
