import { PLATFORM_A } from './getir/getir.platform';
import { PLATFORM_B } from './yemeksepeti/yemeksepeti.platform';
import { PLATFORM_C } from './trendyol-go/trendyol-go.platform';
import { PLATFORM_D } from './migros-yemek/migros-yemek.platform';
import { headerUnsafeFields, PlatformDefinition } from './common/platform-definition';
import { THIRD_PARTY } from './third-party/third-party.platform';

/** Every registered platform. A new platform is one definition file and one entry here. */
export const PLATFORM_DEFINITIONS: readonly PlatformDefinition[] = [PLATFORM_A, PLATFORM_B, PLATFORM_C, PLATFORM_D, THIRD_PARTY];

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
