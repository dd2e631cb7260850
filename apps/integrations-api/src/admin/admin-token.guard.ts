import { Injectable } from '@nestjs/common';
import { AdminTokenGuardBase } from '@courier/http';
import { IntegrationsConfig } from '../app/integrations-api.config';

export { ADMIN_TOKEN_HEADER } from '@courier/http';

/** `/admin/v1/*`: X-Admin-Token equal to ADMIN_TOKEN (the check itself: AdminTokenGuardBase of @courier/http). */
@Injectable()
export class AdminTokenGuard extends AdminTokenGuardBase {
  constructor(private readonly config: IntegrationsConfig) {
    super();
  }

  protected adminToken(): string | undefined {
    return this.config.ADMIN_TOKEN;
  }
}
