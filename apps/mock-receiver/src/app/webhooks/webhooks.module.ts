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
      // Installed on the HTTP adapter while this provider is created, ahead of every route: the
      // webhook routes see the exact bytes received, and the shared JSON reader (createHttpApp's
      // interceptor) finds the body read and leaves it alone.
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
