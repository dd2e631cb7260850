import { Module } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { captureRawBody } from './raw-body.middleware';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

const RAW_BODY_CAPTURE = Symbol('RAW_BODY_CAPTURE');

@Module({
  controllers: [WebhooksController],
  providers: [
    WebhooksService,
    {
      // createHttpApp installs the JSON parser right after the modules are instantiated, and module
      // middleware would only run after it; installing the capture on the HTTP adapter while this
      // provider is created puts it first, so the webhook routes see the exact bytes received.
      provide: RAW_BODY_CAPTURE,
      inject: [HttpAdapterHost],
      useFactory: (host: HttpAdapterHost) => {
        host.httpAdapter?.use('/webhook', captureRawBody());
        return true;
      },
    },
  ],
})
export class WebhooksModule {}
