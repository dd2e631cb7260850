import type { StatusPushRules } from '@courier/domain';
import { headerUnsafeFields, PlatformDefinition } from './common/platform-definition';
import { PlatformHttpConfig, validatePlatformClientConfig } from './common/platform-client.config';
import { platformEntry, type PlatformConfigClass, type PlatformEntry } from './common/platform-entry';
import { PlatformAAdapter } from './getir/getir.adapter';
import { GetirClientConfig } from './getir/getir.client.config';
import { GETIR_INBOUND } from './getir/getir.inbound';
import { GETIR_LOCAL_SIMULATOR } from './getir/getir.local-simulator';
import { PLATFORM_A } from './getir/getir.platform';
import { PlatformDAdapter } from './migros-yemek/migros-yemek.adapter';
import { MigrosYemekClientConfig } from './migros-yemek/migros-yemek.client.config';
import { MIGROS_YEMEK_INBOUND } from './migros-yemek/migros-yemek.inbound';
import { MIGROS_YEMEK_LOCAL_SIMULATOR } from './migros-yemek/migros-yemek.local-simulator';
import { PLATFORM_D } from './migros-yemek/migros-yemek.platform';
import { THIRD_PARTY } from './third-party/third-party.platform';
import { PlatformCAdapter } from './trendyol-go/trendyol-go.adapter';
import { TrendyolGoClientConfig } from './trendyol-go/trendyol-go.client.config';
import { TRENDYOL_GO_INBOUND } from './trendyol-go/trendyol-go.inbound';
import { TRENDYOL_GO_LOCAL_SIMULATOR } from './trendyol-go/trendyol-go.local-simulator';
import { PLATFORM_C } from './trendyol-go/trendyol-go.platform';
import { PlatformBAdapter } from './yemeksepeti/yemeksepeti.adapter';
import { YemeksepetiClientConfig } from './yemeksepeti/yemeksepeti.client.config';
import { YEMEKSEPETI_INBOUND } from './yemeksepeti/yemeksepeti.inbound';
import { YEMEKSEPETI_LOCAL_SIMULATOR } from './yemeksepeti/yemeksepeti.local-simulator';
import { PLATFORM_B } from './yemeksepeti/yemeksepeti.platform';

/**
 * Every registered platform, each from its own folder: its definition, its client settings and
 * adapter, its inbound pieces and its one-machine simulator. A new platform is one folder and one line here.
 */
export const PLATFORMS = [
  platformEntry({ definition: PLATFORM_A, clientConfig: GetirClientConfig, adapter: (config, sessions) => new PlatformAAdapter(config, sessions), inbound: GETIR_INBOUND, simulator: GETIR_LOCAL_SIMULATOR }),
  platformEntry({ definition: PLATFORM_B, clientConfig: YemeksepetiClientConfig, adapter: (config, sessions) => new PlatformBAdapter(config, sessions), inbound: YEMEKSEPETI_INBOUND, simulator: YEMEKSEPETI_LOCAL_SIMULATOR }),
  platformEntry({ definition: PLATFORM_C, clientConfig: TrendyolGoClientConfig, adapter: (config) => new PlatformCAdapter(config), inbound: TRENDYOL_GO_INBOUND, simulator: TRENDYOL_GO_LOCAL_SIMULATOR }),
  platformEntry({ definition: PLATFORM_D, clientConfig: MigrosYemekClientConfig, adapter: (config) => new PlatformDAdapter(config), inbound: MIGROS_YEMEK_INBOUND, simulator: MIGROS_YEMEK_LOCAL_SIMULATOR }),
  platformEntry({ definition: THIRD_PARTY }),
] as const satisfies readonly PlatformEntry[];

type ClientOf<Entry> = Entry extends PlatformEntry<infer Client> ? Client : never;
type Intersection<Union> = (Union extends unknown ? (part: Union) => void : never) extends (whole: infer All) => void ? All : never;

/** The registered platforms' client settings in one object (each from its entry's clientConfig). */
export type PlatformClientConfig = PlatformHttpConfig & Intersection<ClientOf<(typeof PLATFORMS)[number]>>;

/** The config classes of the platform clients: the shared one and each entry's (every app that calls a platform validates them). */
export const PLATFORM_CLIENT_CONFIGS: readonly PlatformConfigClass[] = [PlatformHttpConfig, ...PLATFORMS.flatMap((platform): PlatformConfigClass[] => (platform.clientConfig ? [platform.clientConfig] : []))];

/** The registered platforms' client settings from `env` (process.env by default); throws ConfigurationError naming every bad variable. */
export function platformClientConfig(env: Record<string, string | undefined> = process.env): PlatformClientConfig {
  return validatePlatformClientConfig<PlatformClientConfig>(PLATFORMS, env);
}

/** The definitions of the registered platforms. */
export const PLATFORM_DEFINITIONS: readonly PlatformDefinition[] = PLATFORMS.map((platform) => platform.definition);

/** The config classes of the platforms' inbound pieces (status-dispatcher validates them at start). */
export const PLATFORM_INBOUND_CONFIGS: readonly PlatformConfigClass[] = PLATFORMS.flatMap((platform) => platform.inbound?.configs ?? []);

/** The rules a platform's definition gives the status-push guards (none for an unknown code). */
export function statusPushRulesOf(platformCode: string, definitions: readonly PlatformDefinition[] = PLATFORM_DEFINITIONS): StatusPushRules {
  return definitions.find((definition) => definition.code === platformCode)?.statusRules ?? {};
}

/**
 * Why an integration's stored credentials cannot be sent to its platform (a header-bound field a
 * header cannot carry, named with its header, never its value), or undefined. Every call with them
 * would fail before any I/O: the caller ends it as a final failure instead of retrying it.
 */
export function unsendableCredentialProblem(platformCode: string, credentials: { settings: Record<string, string>; secrets: Record<string, string> }): string | undefined {
  const platform = PLATFORM_DEFINITIONS.find((definition) => definition.code === platformCode);
  if (!platform) return undefined;
  const fields = headerUnsafeFields(platform, { ...credentials.settings, ...credentials.secrets });
  if (fields.length === 0) return undefined;
  const named = fields.map((field) => `${field.name} (sent in the ${field.sentInHeader} header)`).join(', ');
  return `CREDENTIAL_NOT_SENDABLE: the stored ${named} holds characters an HTTP header cannot carry (visible ASCII only); correct it with PUT /api/v1/my/integrations/{id}`;
}
