import { PLATFORM_B_PLUGIN_STATUSES } from './yemeksepeti.plugin-answers';
import type { PlatformInbound } from '../common/platform-entry';
import { PlatformBPluginGuard } from './yemeksepeti-plugin.guard';
import { PlatformBController } from './yemeksepeti.controller';
import { YemeksepetiInboundConfig } from './yemeksepeti.inbound.config';

/** Delivery Hero's orders in: the POS plugin endpoints its middleware calls. */
export const YEMEKSEPETI_INBOUND: PlatformInbound = { controllers: [PlatformBController], providers: [PlatformBPluginGuard], configs: [YemeksepetiInboundConfig],
  openApi: {
    callbacks: 'PLATFORM_B\'s POS plugin endpoints (a Bearer JWT the DH middleware signs with PLATFORM_B_PLUGIN_SECRET)',
    bearerJwt: { description: 'PLATFORM_B: a JWT the DH middleware signs with PLATFORM_B_PLUGIN_SECRET (HS256/384/512), claim service "middleware", exp when present.' },
    // The DH middleware accepts no other answer from the plugin (PlatformBPluginAnswerFilter maps the rest).
    restrictedAnswers: [{ pathPrefix: '/platforms/platform-b', statuses: PLATFORM_B_PLUGIN_STATUSES }],
  },
};
