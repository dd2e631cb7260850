import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, FieldError } from '@courier/contracts';
import { assertPublicUrl, HostResolver, ProblemException, UrlPolicyError } from '@courier/http';
import { IntegrationsConfig } from '../app/integrations-api.config';
import { HOST_RESOLVER } from './tokens';

/**
 * Checks receiver URLs when they are saved: https only (unless WEBHOOK_ALLOW_INSECURE_URLS), no
 * credentials, host resolving only to public addresses. The webhook sender checks again at send time.
 */
@Injectable()
export class WebhookUrlPolicy {
  constructor(
    private readonly config: IntegrationsConfig,
    @Inject(HOST_RESOLVER) private readonly resolve: HostResolver,
  ) {}

  /**
   * Normalises the given URLs (null clears one, undefined leaves it alone) or throws one 422 that
   * lists every refused field.
   */
  async check<K extends string>(urls: Partial<Record<K, string | null | undefined>>): Promise<Partial<Record<K, string | null>>> {
    const errors: FieldError[] = [];
    const checked: Partial<Record<K, string | null>> = {};
    for (const [field, value] of Object.entries(urls) as Array<[K, string | null | undefined]>) {
      if (value === undefined) continue;
      if (value === null) {
        checked[field] = null;
        continue;
      }
      try {
        const { url } = await assertPublicUrl(value, {
          allowInsecure: this.config.WEBHOOK_ALLOW_INSECURE_URLS,
          allowedInsecureOrigins: this.config.WEBHOOK_ALLOWED_INSECURE_ORIGINS,
          resolve: this.resolve,
        });
        checked[field] = url.href;
      } catch (error) {
        if (!(error instanceof UrlPolicyError)) throw error;
        errors.push({ field, message: error.message });
      }
    }
    if (errors.length > 0) throw new ProblemException(422, ErrorCode.ValidationError, 'The request has invalid fields.', errors);
    return checked;
  }
}
