import { Injectable } from '@nestjs/common';
import { AdminTokenGuardBase } from '@courier/http';
import { DispatcherConfig } from '../app/status-dispatcher.config';

/** `/admin/v1/*`: X-Admin-Token equal to ADMIN_TOKEN (the check itself: AdminTokenGuardBase of @courier/http). */
@Injectable()
export class AdminTokenGuard extends AdminTokenGuardBase {
  constructor(private readonly config: DispatcherConfig) {
    super();
  }

  protected adminToken(): string | undefined {
    return this.config.ADMIN_TOKEN;
  }
}
