import { Injectable } from '@nestjs/common';
import { AdminTokenGuardBase } from '@courier/http';
import { AuthFailures } from '@courier/rate-limit';
import { IntegrationsConfig } from '../app/integrations-api.config';

export { ADMIN_TOKEN_HEADER } from '@courier/http';

/** `/admin/v1/*`: X-Admin-Token equal to ADMIN_TOKEN (the check itself: AdminTokenGuardBase of @courier/http), failures through AuthFailures. */
@Injectable()
export class AdminTokenGuard extends AdminTokenGuardBase {
  constructor(
    private readonly config: IntegrationsConfig,
    authFailures: AuthFailures,
  ) {
    super(authFailures);
  }

  protected adminToken(): string | undefined {
    return this.config.ADMIN_TOKEN;
  }
}
