import type { PlatformInbound } from '../common/platform-entry';
import { PlatformBPluginGuard } from './yemeksepeti-plugin.guard';
import { PlatformBController } from './yemeksepeti.controller';
import { YemeksepetiInboundConfig } from './yemeksepeti.inbound.config';

/** Delivery Hero's orders in: the POS plugin endpoints its middleware calls. */
export const YEMEKSEPETI_INBOUND: PlatformInbound = { controllers: [PlatformBController], providers: [PlatformBPluginGuard], configs: [YemeksepetiInboundConfig] };
