import { Injectable, Logger } from '@nestjs/common';
import { ErrorCode } from '@courier/contracts';
import { ProblemException } from '@courier/http';
import { PlatformRegistry } from '@courier/platforms';
import { RestaurantEntity } from '../accounts/restaurant.entity';
import { isUuid } from '../common/ids';
import { verificationView } from '../integrations/integration.presenter';
import { IntegrationVerificationService } from '../integration-verification/integration-verification.service';
import { IntegrationsRepository } from '../repositories/integrations.repository';
import { IntegrationCheckDto } from './dto/integration-check.dto';

/**
 * Tells the customer whether an integration's stored credentials work, by asking the platform with
 * the platform adapter: a real login where the platform has one (never the cached session), else a
 * harmless authenticated read. The verdict is the integration's verification (stored). Secrets are
 * opened in memory for the call only and never returned.
 */
@Injectable()
export class IntegrationCheckService {
  private readonly logger = new Logger('IntegrationCheck');

  constructor(
    private readonly integrations: IntegrationsRepository,
    private readonly verification: IntegrationVerificationService,
    private readonly registry: PlatformRegistry,
  ) {}

  async check(restaurant: RestaurantEntity, id: string): Promise<IntegrationCheckDto> {
    const notFound = new ProblemException(404, ErrorCode.IntegrationNotFound, 'No integration with this id.');
    if (!isUuid(id)) throw notFound;
    const integration = await this.integrations.findOwn(restaurant.id, id);
    if (!integration) throw notFound;
    const { check, integration: after } = await this.verification.verifyIntegration(integration);
    const answer: IntegrationCheckDto = {
      integrationId: integration.id,
      platform: this.registry.wireCodeOf(integration.platform),
      result: check.result,
      ok: check.result === 'ok',
      detail: check.detail,
      ...(check.httpStatus !== undefined ? { httpStatus: check.httpStatus } : {}),
      checkedAt: new Date().toISOString(),
      verification: verificationView(after),
    };
    this.logger.log({ integrationId: integration.id, platform: integration.platform, result: answer.result, httpStatus: answer.httpStatus }, 'integration credentials checked');
    return answer;
  }
}
