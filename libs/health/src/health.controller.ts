import { Controller, Get, Inject, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { HealthCheckService, HealthIndicatorFunction } from '@nestjs/terminus';
import { READINESS_CHECKS } from './tokens';

/** Liveness is trivial (the process answers); readiness checks every dependency with a timeout. */
@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    @Inject(READINESS_CHECKS) private readonly checks: HealthIndicatorFunction[],
  ) {}

  @Get()
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /**
   * 200 with every check's state, or 503 with the same details. Not-ready is an expected state
   * (start-up, a dependency outage), answered directly rather than logged as a server error.
   */
  @Get('ready')
  async ready(@Res({ passthrough: true }) response: Response): Promise<unknown> {
    try {
      return await this.health.check(this.checks);
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      response.status(503);
      return error.getResponse();
    }
  }
}
