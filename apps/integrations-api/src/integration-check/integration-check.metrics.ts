import { Injectable } from '@nestjs/common';
import { Counter, Registry } from 'prom-client';

/** The answer of a check refused by its limit, counted beside the platform's verdicts. */
export const RATE_LIMITED = 'rate_limited';

/**
 * platform_credential_checks_total{platform,result}: every credential check by neutral platform code
 * and result, so that refused logins (`rejected`) and refused checks (`rate_limited`) show on a
 * dashboard and can raise an alert. On the app's registry (MetricsModule's /metrics).
 */
@Injectable()
export class IntegrationCheckMetrics {
  readonly checks: Counter<'platform' | 'result'>;

  constructor(registry: Registry) {
    this.checks = new Counter({
      name: 'platform_credential_checks_total',
      help: 'Credential checks of integrations (POST /api/v1/my/integrations/{id}/check) by platform and result; rate_limited: refused with 429 before any platform call.',
      labelNames: ['platform', 'result'] as const,
      registers: [registry],
    });
  }

  record(platform: string, result: string): void {
    this.checks.inc({ platform, result });
  }
}
