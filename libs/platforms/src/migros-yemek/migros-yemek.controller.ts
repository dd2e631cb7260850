import { Body, Controller, Headers, HttpCode, Logger, Post } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ErrorCode, FieldError } from '@courier/contracts';
import { SecretDecryptionError } from '@courier/crypto';
import { ProblemException } from '@courier/http';
import type { IntegrationCredentials } from '../common/platform-adapter';
import { PlatformAdapters } from '../common/platform-adapters';
import { PlatformApiProblems as ApiProblems } from '../common/platform-api-problems';
import { presentedKeyMatches } from '../common/platform-callback.auth';
import { InboundIntegration, PlatformOrderIntake, PlatformOrderOfAnotherIntegration } from '../common/platform-order-intake';
import type { PlatformDAdapter, PlatformDOrderReadBack } from './migros-yemek.adapter';
import { PLATFORM_D_WEBHOOK } from './migros-yemek.assumptions';
import type { MigrosYemekClientSettings } from './migros-yemek.client.config';
import { isPlatformDEnvelope, openPlatformDValue } from './migros-yemek.crypto';
import { parsePlatformDWebhook } from './migros-yemek.orders';
import { ReadBackLimiter } from './migros-yemek.read-backs';

const PLATFORM = 'PLATFORM_D';

const WEBHOOK_BODY: SchemaObject = {
  description:
    'One of Migros\' three webhooks, plain JSON (an encrypted `{ value }` is opened too, ECB or CBC): the Order Created body (the order: `id`, `status` NEW_PENDING, `deliveryProvider`, `store { id, group { id } }`, `customer { id, ... }`, `prices`, `items [{ price (kuruş) ... }]`, `payment`, `extendedProperties`), the cancellation `{ OrderId, StoreId, UserId }`, or the delivery status `{ orderId, storeId, status, deliveryStatus, isCancelled, deliveryProvider, courierName }`.',
  oneOf: [
    {
      type: 'object',
      title: 'Order created',
      required: ['id', 'store'],
      properties: {
        id: { oneOf: [{ type: 'integer' }, { type: 'string', maxLength: 64 }], description: 'Migros\' order id.' },
        store: {
          type: 'object',
          required: ['id'],
          properties: { id: { oneOf: [{ type: 'integer' }, { type: 'string', maxLength: 64 }], description: 'The store: the integration\'s providerRestaurantId.' } },
          additionalProperties: true,
        },
      },
      additionalProperties: true,
    },
    { type: 'object', title: 'Order cancelled', required: ['OrderId', 'StoreId'], properties: { OrderId: { type: 'integer' }, StoreId: { type: 'integer' }, UserId: { type: 'integer' } }, additionalProperties: true },
    {
      type: 'object',
      title: 'Delivery status',
      required: ['orderId', 'storeId'],
      properties: {
        orderId: { type: 'integer' },
        storeId: { type: 'integer' },
        status: { type: 'string', example: 'APPROVED' },
        deliveryStatus: { type: 'string', nullable: true, enum: ['ASSIGNED_FOR_DELIVERY', 'COURIER_APPROACHED', 'COURIER_ARRIVED', 'IN_DELIVERY', 'DELIVERED', null] },
        isCancelled: { type: 'boolean' },
        deliveryProvider: { type: 'string', example: 'MIGROS' },
        courierName: { type: 'string', nullable: true },
      },
      additionalProperties: true,
    },
    { type: 'object', title: 'Encrypted', required: ['value'], properties: { value: { type: 'string', description: 'base64 of the JSON encrypted with AES-256 (ECB or CBC, zero IV).' } }, additionalProperties: false },
  ],
};

const ANSWER: SchemaObject = {
  type: 'object',
  description:
    'HTTP 200 in Migros\' envelope: `success: true` when handled; `success: false` with `errorMessage { errorCode, errorTitle, errorDetail }` (and our `code`, `detail`) when refused for good, so that Migros does not retry what a retry cannot change (PLATFORM_ORDER_NOT_CONFIRMED: no integration has the store, or Migros does not show the order, or does not show it cancelled, for that store; INTEGRATION_DISABLED: intake paused; PLATFORM_ORDER_OF_ANOTHER_INTEGRATION: this store\'s order with this id was received for another integration).',
  required: ['success'],
  properties: {
    success: { type: 'boolean' },
    received: { type: 'boolean' },
    yemekKuryeOrderId: { type: 'string', format: 'uuid' },
    duplicate: { type: 'boolean' },
    result: { type: 'string', enum: ['canceled', 'already_final', 'unknown', 'recorded'] },
    confirmedBy: { type: 'string', enum: ['XApiKey', 'GetOrderDetail'], description: 'What the webhook was trusted by: the store\'s key it carried, or Migros\' answer read back with that key.' },
    errorMessage: { type: 'object', properties: { errorCode: { type: 'string' }, errorTitle: { type: 'string' }, errorDetail: { type: 'string' } } },
    code: { type: 'string', example: 'PLATFORM_ORDER_NOT_CONFIRMED' },
    detail: { type: 'string' },
  },
};

/** Migros' answer envelope on a refusal (AJ: `{ success: false, errorMessage { errorDetail } }`), with our problem `code` and `detail`. */
function migrosEnvelope(code: string, detail: string) {
  return { success: false as const, errorMessage: { errorCode: code, errorTitle: code.replace(/_/g, ' ').toLowerCase(), errorDetail: detail }, code, detail };
}

/** A refusal a retry cannot change: HTTP 200 so that Migros does not retry (migros-yemek.assumptions.ts, PLATFORM_D_WEBHOOK). */
function refusedForGood(code: string, detail: string) {
  return { received: false, ...migrosEnvelope(code, detail) };
}

/** A webhook Migros should send again: 503 with Retry-After (Migros retries 10, 20, 30 s later). */
function tryAgainLater(detail: string): ProblemException {
  return new ProblemException(503, ErrorCode.ServiceUnavailable, detail, undefined, migrosEnvelope(ErrorCode.ServiceUnavailable, detail), { 'Retry-After': String(PLATFORM_D_WEBHOOK.retryDelaysS[0]) });
}

function invalidWebhook(status: 400 | 422, code: ErrorCode, detail: string, errors?: FieldError[]): ProblemException {
  return new ProblemException(status, code, detail, errors, migrosEnvelope(code, detail));
}

/**
 * PLATFORM_D's (Migros Yemek) webhooks: the order, its cancellation and its delivery status, plain
 * JSON (migros-yemek.assumptions.ts). No source shows Migros authenticating them: a webhook whose
 * `XApiKey` is the store's apiKey is taken as it comes; any other is never trusted, and the order is
 * read back from Migros with the store's own key (GetOrderDetail): only what Migros answers counts.
 * Every path takes every shape (which URL Migros posts which event to is configured on its side).
 */
@ApiTags('platform callbacks')
// The key is optional: `{}` lets a webhook without it through (then read back from Migros).
@ApiSecurity('XApiKey')
@ApiSecurity({})
@ApiHeader({
  name: 'XApiKey',
  required: false,
  description: 'The Migros store\'s API key (the integration\'s apiKey). Optional: without it, or with another, the order is confirmed by reading it back from Migros with the store\'s own key.',
})
@ApiProblems(
  [400, 'INVALID_PAYLOAD: not JSON, or an encrypted `{ value }` that opens to JSON in neither ECB nor CBC with the deployment\'s key (PLATFORM_D_SECRET_KEY, else the XApiKey presented).'],
  413,
  [422, 'VALIDATION_ERROR: neither an order (id, store.id), a cancellation (OrderId, StoreId) nor a delivery status (orderId, storeId), or malformed fields. Also carries Migros\' envelope (`success: false`, `errorMessage`).'],
  500,
  [503, 'SERVICE_UNAVAILABLE (with `success: false`, `errorMessage` and Retry-After): the read-back could not reach Migros, or too many unauthenticated webhooks of the store were read back in the last minute. Migros retries (10, 20, 30 s).'],
)
@Controller('platforms/platform-d')
export class PlatformDController {
  private readonly logger = new Logger('PlatformD');
  private readonly readBacks = new ReadBackLimiter(PLATFORM_D_WEBHOOK.readBacksPerStore, PLATFORM_D_WEBHOOK.windowMs);

  constructor(
    private readonly orders: PlatformOrderIntake,
    private readonly adapters: PlatformAdapters,
  ) {}

  @Post('orders')
  @HttpCode(200)
  @ApiOperation({
    summary: 'PLATFORM_D (Migros Yemek) order webhook.',
    description:
      'A new order becomes an order of the restaurant whose PLATFORM_D integration has `store.id` as providerRestaurantId (kuruş amounts in TRY); the same order again answers the same yemekKuryeOrderId. ' +
      'Without the store\'s key in XApiKey the order is read back from Migros (GetOrderDetail with the store\'s key) and Migros\' answer, not the body, becomes the order; an order Migros does not show for that store is refused. ' +
      'An order is the store\'s own: the same id under another store is that store\'s order, never answered with this one\'s id; this store\'s order received for another integration (the store\'s integration replaced) is refused for good (PLATFORM_ORDER_OF_ANOTHER_INTEGRATION). ' +
      'A cancellation or delivery-status body sent here is handled as on its own path.',
  })
  @ApiBody({ schema: WEBHOOK_BODY })
  @ApiOkResponse({ schema: ANSWER })
  order(@Headers('xapikey') key: unknown, @Body() body: unknown) {
    return this.webhook(key, body);
  }

  @Post('orders/cancelled')
  @HttpCode(200)
  @ApiOperation({
    summary: 'PLATFORM_D (Migros Yemek) cancellation webhook: `{ OrderId, StoreId, UserId }`.',
    description:
      'Cancels the store\'s order (order.canceled with OTHER / System). Without the store\'s key in XApiKey, only when Migros shows the order cancelled for that store (GetOrderDetail). A repeat, or an order never received, answers `success: true` too (`result` says which).',
  })
  @ApiBody({ schema: WEBHOOK_BODY })
  @ApiOkResponse({ schema: ANSWER })
  cancelled(@Headers('xapikey') key: unknown, @Body() body: unknown) {
    return this.webhook(key, body);
  }

  @Post('orders/delivery-status')
  @HttpCode(200)
  @ApiOperation({
    summary: 'PLATFORM_D (Migros Yemek) delivery-status webhook: `{ orderId, storeId, status, deliveryStatus, isCancelled, deliveryProvider, courierName }`.',
    description:
      '`isCancelled: true` cancels the store\'s order as the cancellation webhook does (confirmed by GetOrderDetail without the store\'s key). Any other delivery status (ASSIGNED_FOR_DELIVERY ... DELIVERED) is recorded in the log and moves nothing (`result: recorded`): the courier core drives the order.',
  })
  @ApiBody({ schema: WEBHOOK_BODY })
  @ApiOkResponse({ schema: ANSWER })
  deliveryStatus(@Headers('xapikey') key: unknown, @Body() body: unknown) {
    return this.webhook(key, body);
  }

  private async webhook(key: unknown, rawBody: unknown) {
    const webhook = parsePlatformDWebhook(this.opened(key, rawBody));
    if (!webhook.ok) throw invalidWebhook(422, ErrorCode.ValidationError, 'The platform\'s payload has invalid fields.', webhook.errors);
    const integration = await this.orders.forPlatformRestaurant(PLATFORM, webhook.storeId);
    const notConfirmed = (why: string) => refusedForGood(ErrorCode.PlatformOrderNotConfirmed, `Migros does not confirm this webhook for store ${webhook.storeId}: ${why}.`);
    // An unknown store answers as an unconfirmed order: a caller learns nothing about which stores exist.
    if (!integration) return notConfirmed('no integration can read it back');
    const credentials = this.credentials(integration);
    if (!credentials) return notConfirmed('the integration\'s key cannot be read');
    const authenticated = presentedKeyMatches(key, credentials.secrets.apiKey);
    const confirmedBy = authenticated ? 'XApiKey' : 'GetOrderDetail';
    const orderId = webhook.kind === 'order' ? webhook.order.platformOrderId : webhook.orderId;

    if (webhook.kind === 'delivery_status' && !webhook.isCancelled) {
      // Recorded only (migros-yemek.assumptions.ts): nothing moves, so nothing needs confirming.
      this.logger.log(
        { integrationId: integration.integrationId, platformOrderId: orderId, deliveryStatus: webhook.deliveryStatus, status: webhook.status, deliveryProvider: webhook.deliveryProvider, courierName: webhook.courierName, authenticated },
        'PLATFORM_D delivery status recorded',
      );
      return { success: true, received: true, result: 'recorded' as const };
    }

    if (webhook.kind === 'order') {
      if (!integration.isActive || !integration.accountActive) {
        return { ...refusedForGood(ErrorCode.IntegrationDisabled, `Order intake from ${PLATFORM} is paused for this restaurant (integration inactive or account disabled).`) };
      }
      let order = webhook.order;
      if (!authenticated) {
        const readBack = await this.readBack(credentials, orderId, webhook.storeId);
        if (readBack.kind !== 'found') return notConfirmed(readBack.detail);
        order = readBack.order;
      }
      let received;
      try {
        received = await this.orders.receive(integration, order);
      } catch (error) {
        if (error instanceof PlatformOrderOfAnotherIntegration) return refusedForGood(error.code, error.detail);
        throw error;
      }
      return { success: true, received: true, yemekKuryeOrderId: received.yemekKuryeOrderId, duplicate: !received.created, confirmedBy };
    }

    if (!authenticated) {
      const readBack = await this.readBack(credentials, orderId, webhook.storeId);
      if (readBack.kind !== 'found') return notConfirmed(readBack.detail);
      if (!readBack.cancelled) return notConfirmed(`Migros shows order ${orderId} as ${readBack.status ?? 'not cancelled'}`);
    }
    const by = webhook.kind === 'cancellation' ? (webhook.userId ? ` (user ${webhook.userId})` : '') : ' (delivery status: cancelled)';
    const result = await this.orders.cancel(PLATFORM, orderId, `Cancelled on Migros Yemek${by}`, webhook.storeId);
    return { success: true, received: true, result, confirmedBy };
  }

  /**
   * The body, an encrypted `{ value }` opened (either mode) with the integrator's key or else the key
   * presented (the store's apiKey is its encryption key then; the integration check follows anyway).
   */
  private opened(key: unknown, body: unknown): unknown {
    if (!isPlatformDEnvelope(body)) return body;
    const config = this.adapters.config as MigrosYemekClientSettings; // validated with its entry's clientConfig
    const secret = config.PLATFORM_D_SECRET_KEY ?? (typeof key === 'string' && key.length > 0 && key.length <= 1024 ? key : undefined);
    const opened = secret === undefined ? undefined : openPlatformDValue(body.value, secret, config.PLATFORM_D_ENCRYPTION_MODE);
    if (!opened) throw invalidWebhook(400, ErrorCode.InvalidPayload, 'The encrypted body opens to JSON in neither ECB nor CBC with the integrator\'s key (PLATFORM_D_SECRET_KEY, else the XApiKey presented).');
    return opened.json;
  }

  /** Migros' own view of the order, read with the store's key; a failure to ask answers 503 so that Migros retries. */
  private async readBack(credentials: IntegrationCredentials, orderId: string, storeId: string): Promise<PlatformDOrderReadBack> {
    if (!this.readBacks.take(storeId)) {
      this.logger.warn({ integrationId: credentials.integrationId, platformOrderId: orderId }, 'PLATFORM_D read-back limit reached for the store; webhook refused for now');
      throw tryAgainLater(`Too many unauthenticated webhooks for store ${storeId} were read back in the last minute; send it again later.`);
    }
    const adapter = this.adapters.get(PLATFORM) as PlatformDAdapter;
    const readBack = await adapter.readOrder(credentials, orderId);
    this.logger.log({ integrationId: credentials.integrationId, platformOrderId: orderId, readBack: readBack.kind, httpStatus: readBack.httpStatus }, 'PLATFORM_D webhook without the store\'s key read back from Migros');
    if (readBack.kind === 'unavailable') throw tryAgainLater(`Migros could not be asked about order ${orderId} (${readBack.detail}); send it again later.`);
    return readBack;
  }

  private credentials(integration: InboundIntegration): IntegrationCredentials | undefined {
    try {
      return this.orders.credentials(integration);
    } catch (error) {
      if (!(error instanceof SecretDecryptionError)) throw error;
      this.logger.error({ integrationId: integration.integrationId, keyId: error.keyId }, 'integration secret cannot be decrypted (SECRETS_ENCRYPTION_KEYS lacks its key)');
      return undefined;
    }
  }
}
