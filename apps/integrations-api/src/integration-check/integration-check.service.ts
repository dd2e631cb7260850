import { Injectable, Logger } from '@nestjs/common';
import { ErrorCode } from '@courier/contracts';
import { SecretBox, secretBinding, SecretDecryptionError } from '@courier/crypto';
import { ProblemException } from '@courier/http';
import { CredentialCheck, PlatformAdapters, PlatformRegistry } from '@courier/platforms';
import { RestaurantEntity } from '../accounts/restaurant.entity';
import { isUuid } from '../common/ids';
import { IntegrationEntity } from '../integrations/integration.entity';
import { IntegrationsRepository } from '../repositories/integrations.repository';
import { IntegrationCheckDto } from './dto/integration-check.dto';

/**
 * Tells an operator whether an integration's stored credentials work, by asking the platform with
 * the platform adapter: a real login where the platform has one (never the cached session), else a
 * harmless authenticated read. Secrets are opened in memory for the call only and never returned.
 */
@Injectable()
export class IntegrationCheckService {
  private readonly logger = new Logger('IntegrationCheck');

  constructor(
    private readonly integrations: IntegrationsRepository,
    private readonly adapters: PlatformAdapters,
    private readonly registry: PlatformRegistry,
    private readonly secretBox: SecretBox,
  ) {}

  async check(restaurant: RestaurantEntity, id: string): Promise<IntegrationCheckDto> {
    const notFound = new ProblemException(404, ErrorCode.IntegrationNotFound, 'No integration with this id.');
    if (!isUuid(id)) throw notFound;
    const integration = await this.integrations.findOwn(restaurant.id, id);
    if (!integration) throw notFound;

    const verdict = await this.verdict(integration);
    const answer: IntegrationCheckDto = {
      integrationId: integration.id,
      platform: this.registry.wireCodeOf(integration.platform),
      result: verdict.result,
      ok: verdict.result === 'ok',
      detail: verdict.detail,
      ...(verdict.httpStatus !== undefined ? { httpStatus: verdict.httpStatus } : {}),
      checkedAt: new Date().toISOString(),
    };
    this.logger.log({ integrationId: integration.id, platform: integration.platform, result: answer.result, httpStatus: answer.httpStatus }, 'integration credentials checked');
    return answer;
  }

  private async verdict(integration: IntegrationEntity): Promise<Omit<CredentialCheck, 'result'> & { result: IntegrationCheckDto['result'] }> {
    const adapter = this.adapters.get(integration.platform);
    if (!adapter) return { result: 'not_applicable', detail: `${this.registry.wireCodeOf(integration.platform)} has no platform credentials to check.` };
    let secrets: Record<string, string>;
    try {
      secrets = Object.fromEntries(Object.entries(integration.secrets).map(([field, ciphertext]) => [field, this.secretBox.decrypt(ciphertext, secretBinding.integrationSecret(integration.id, field))]));
    } catch (error) {
      if (!(error instanceof SecretDecryptionError)) throw error;
      return { result: 'not_configured', detail: 'The stored secrets cannot be decrypted with SECRETS_ENCRYPTION_KEYS (a key is missing): send them again with PUT.' };
    }
    return adapter.checkCredentials({ integrationId: integration.id, providerRestaurantId: integration.providerRestaurantId, settings: integration.settings, secrets });
  }
}
