import { Injectable } from '@nestjs/common';
import { AdminTokenGuardBase } from '@courier/http';
import { AuthFailures } from '@courier/rate-limit';
import { DispatcherConfig } from '../app/status-dispatcher.config';

/** `/admin/v1/*`: X-Admin-Token equal to ADMIN_TOKEN (the check itself: AdminTokenGuardBase of @courier/http), failures through AuthFailures. */
@Injectable()
export class AdminTokenGuard extends AdminTokenGuardBase {
  constructor(
    private readonly config: DispatcherConfig,
    authFailures: AuthFailures,
  ) {
    super(authFailures);
  }

  protected adminToken(): string | undefined {
    return this.config.ADMIN_TOKEN;
  }
}
