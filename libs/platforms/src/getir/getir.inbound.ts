import type { PlatformInbound } from '../common/platform-entry';
import { PlatformAWebhookGuard } from './getir-webhook.guard';
import { PlatformAController } from './getir.controller';
import { GetirInboundConfig } from './getir.inbound.config';
import { PlatformAPoller } from './getir.poller';

/** Getir's orders in: its partner webhooks, and the fallback polling for webhooks that never arrive. */
export const GETIR_INBOUND: PlatformInbound = { controllers: [PlatformAController], providers: [PlatformAWebhookGuard, PlatformAPoller], configs: [GetirInboundConfig],
  openApi: { callbacks: 'PLATFORM_A\'s order webhooks (x-api-key)', apiKeyHeaders: ['x-api-key'] },
};
