import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Registry } from 'prom-client';

/**
 * GET /metrics in the Prometheus text format. Not in the OpenAPI document and not routed by the
 * public Ingress: only the monitoring namespace reaches it (k8s/base/network-policies.yaml).
 */
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly registry: Registry) {}

  @Get()
  async metrics(@Res({ passthrough: true }) response: Response): Promise<string> {
    response.setHeader('Content-Type', this.registry.contentType);
    response.setHeader('Cache-Control', 'no-store');
    return this.registry.metrics();
  }
}
