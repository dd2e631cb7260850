import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RECEIVER_CONFIG } from '../receiver.tokens';
import { maskSecret, ReceiverConfig, resolveDataFile } from '../receiver.config';
import { INTAKE_PATH } from '../orders/intake.client';
import { standardWebhooksKey } from '../webhooks/signature';

@ApiTags('config')
@Controller('api/config')
export class ConfigController {
  constructor(@Inject(RECEIVER_CONFIG) private readonly config: ReceiverConfig) {}

  @Get()
  @ApiOperation({ summary: 'The configuration, secrets masked' })
  show() {
    const config = this.config;
    const secret = config.WEBHOOK_SECRET;
    return {
      variables: {
        PORT: config.PORT,
        SERVICE_API_URL: config.SERVICE_API_URL,
        SERVICE_API_KEY: maskSecret(config.SERVICE_API_KEY),
        SERVICE_RESTAURANT_ID: config.SERVICE_RESTAURANT_ID,
        WEBHOOK_SECRET: maskSecret(secret),
        RECEIVER_DATA_FILE: resolveDataFile(config),
        RECEIVER_HISTORY_LIMIT: config.RECEIVER_HISTORY_LIMIT,
        SERVICE_TIMEOUT_MS: config.SERVICE_TIMEOUT_MS,
        SERVICE_INTERNAL_URL: config.SERVICE_INTERNAL_URL ?? '',
        SERVICE_INTERNAL_API_KEY: maskSecret(config.SERVICE_INTERNAL_API_KEY ?? ''),
        RECEIVER_ALLOWED_HOSTS: config.RECEIVER_ALLOWED_HOSTS ?? '',
      },
      /** Whether the dashboard can move sent orders (POST /api/orders/{orderId}/moves). */
      orderMoves: config.SERVICE_INTERNAL_URL && config.SERVICE_INTERNAL_API_KEY ? { enabled: true, transitionsUrl: `${config.SERVICE_INTERNAL_URL.replace(/\/+$/, '')}/internal/orders/{yemekKuryeOrderId}/transitions` } : { enabled: false },
      intakeUrl: `${config.SERVICE_API_URL.replace(/\/+$/, '')}${INTAKE_PATH}`,
      signatureVerification: {
        serviceSignature: secret ? 'required: X-Service-Signature (during a secret rotation, or X-Service-Signature-New) must match' : 'off: WEBHOOK_SECRET is empty',
        standardWebhooks: !secret
          ? 'off: WEBHOOK_SECRET is empty'
          : standardWebhooksKey(secret)
            ? 'required: webhook-id, webhook-timestamp and webhook-signature must be present and match (timestamps more than 5 minutes off are replays)'
            : 'off: WEBHOOK_SECRET is not in the whsec_ + base64 form',
      },
      receiverPaths: { status: '/webhook/status', cancel: '/webhook/cancel', health: '/health' },
    };
  }
}
