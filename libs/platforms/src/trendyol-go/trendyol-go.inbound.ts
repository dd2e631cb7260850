import type { PlatformInbound } from '../common/platform-entry';
import { TrendyolGoInboundConfig } from './trendyol-go.inbound.config';
import { PlatformCPoller } from './trendyol-go.poller';

/** Trendyol Go's orders in: its packages, polled per integration. */
export const TRENDYOL_GO_INBOUND: PlatformInbound = { providers: [PlatformCPoller], configs: [TrendyolGoInboundConfig] };
