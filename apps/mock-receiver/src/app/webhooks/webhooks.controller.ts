import { applyDecorators, Controller, Get, HttpCode, Post, Query, Req } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ListQueryDto } from '../orders/dto/list-query.dto';
import type { WebhookKind } from '../state/receiver-state';
import type { RequestWithRawBody } from './raw-body.middleware';
import { WebhookAck, WebhooksService } from './webhooks.service';

const SIGNATURE_HEADERS = [
  { name: 'X-Service-Signature', required: false, description: 'Hex HMAC-SHA256 of the raw body; required when WEBHOOK_SECRET is set (during a secret rotation grace period, the previous secret\'s)' },
  { name: 'X-Service-Signature-New', required: false, description: 'During a secret rotation grace period only: the new secret\'s hex HMAC-SHA256; accepted in place of X-Service-Signature' },
  { name: 'X-Webhook-Id', required: false, description: 'Duplicate detection (falls back to webhook-id, then a hash of the body)' },
  { name: 'webhook-id', required: false, description: 'Standard Webhooks id; required (with webhook-timestamp and webhook-signature) when WEBHOOK_SECRET has the whsec_ form' },
  { name: 'webhook-timestamp', required: false, description: 'Standard Webhooks timestamp (seconds); more than 5 minutes off is refused as a replay' },
  { name: 'webhook-signature', required: false, description: 'Standard Webhooks signature(s), space-delimited (two during a secret rotation grace period); required and checked when WEBHOOK_SECRET has the whsec_ form' },
];

/** POST, 200, the signature headers and the answers of a webhook endpoint receiving `event`. */
function WebhookEndpoint(event: 'order.status_changed' | 'order.canceled', summary = `Receives ${event}`) {
  return applyDecorators(
    HttpCode(200),
    ApiOperation({ summary }),
    ...SIGNATURE_HEADERS.map((header) => ApiHeader(header)),
    ApiResponse({ status: 200, description: '{ received: true, webhookId, outcome: applied | duplicate | stale }' }),
    ApiResponse({ status: 401, description: 'INVALID_SIGNATURE' }),
    ApiResponse({ status: 400, description: 'INVALID_PAYLOAD (not JSON)' }),
    ApiResponse({ status: 422, description: `VALIDATION_ERROR (not an ${event} payload)` }),
  );
}

@ApiTags('webhooks')
@Controller()
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post('webhook/status')
  @WebhookEndpoint('order.status_changed', 'Receives order.status_changed, restaurant.availability_changed and catalog.drift_detected (told apart by `event`)')
  status(@Req() req: RequestWithRawBody): WebhookAck {
    return this.receive('status', req);
  }

  @Post('webhook/cancel')
  @WebhookEndpoint('order.canceled')
  cancel(@Req() req: RequestWithRawBody): WebhookAck {
    return this.receive('cancel', req);
  }

  @Get('api/webhooks')
  @ApiOperation({ summary: 'Webhooks received, newest first, with outcome and signature verdicts' })
  list(@Query() query: ListQueryDto) {
    return { data: this.webhooks.list(query.limit) };
  }

  @Get('api/store-status')
  @ApiOperation({
    summary: 'Per platform integration, the store state the availability webhooks reported last, the one changed last first',
    description:
      'integrationId, provider, providerRestaurantId, state (OPEN, CLOSED, BUSY), until, expectedState, detectedBy, platformReason, stateAt (the webhook timestamp), receivedAt, webhookId, history (newest first). A webhook not newer than the state held is stale and not applied.',
  })
  storeStatus(@Query() query: ListQueryDto) {
    return { data: this.webhooks.stores(query.limit) };
  }

  @Get('api/catalog-drift')
  @ApiOperation({
    summary: 'The menu differences the catalog.drift_detected webhooks reported, found latest first',
    description:
      'One entry per webhook: driftEventId, integrationId, provider, providerRestaurantId, importId, changes (kind: price, name, status, added, removed, linked_removed; platformProductId; productCode or null; before; after), detectedAt (the webhook timestamp), receivedAt, webhookId. At most RECEIVER_HISTORY_LIMIT are kept; a repeated webhook id is a duplicate and not listed again.',
  })
  catalogDrift(@Query() query: ListQueryDto) {
    return { data: this.webhooks.drift(query.limit) };
  }

  private receive(kind: WebhookKind, req: RequestWithRawBody): WebhookAck {
    // Without the raw bytes no signature can be checked; this is a wiring fault, not bad input.
    if (!req.rawBody) throw new Error('raw body capture is not installed for /webhook');
    return this.webhooks.receive(kind, req.rawBody, req.headers);
  }
}
