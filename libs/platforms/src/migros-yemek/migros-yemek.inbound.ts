import type { PlatformInbound } from '../common/platform-entry';
import { PlatformDController } from './migros-yemek.controller';

/** Migros Yemek's orders in: its three webhooks. */
export const MIGROS_YEMEK_INBOUND: PlatformInbound = {
  controllers: [PlatformDController],
  openApi: { callbacks: 'PLATFORM_D\'s order and cancellation webhooks (the Migros store\'s XApiKey)', apiKeyHeaders: ['XApiKey'] },
};
