import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ErrorCode } from '@courier/contracts';
import { ProblemException } from '@courier/http';
import { PlatformRegistry } from '@courier/platforms';
import { ApiProblems } from '../common/api-problems';
import { PlatformOrderRepository } from '../platform-orders/platform-order.repository';
import { AdminTokenGuard } from './admin-token.guard';
import { WithheldOrdersDto, WithheldOrdersQuery } from './dto/withheld-orders.dto';

/** GET /admin/v1/withheld-orders: what operators need to see of the platform orders kept from unverified integrations. */
@ApiTags('admin')
@ApiSecurity('X-Admin-Token')
@ApiProblems([401, 'AUTHENTICATION_FAILED: X-Admin-Token missing or wrong, or ADMIN_TOKEN not configured.'], 500)
@UseGuards(AdminTokenGuard)
@Controller('admin/v1/withheld-orders')
export class WithheldOrdersController {
  constructor(
    private readonly orders: PlatformOrderRepository,
    private readonly registry: PlatformRegistry,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'List platform orders withheld because their integration is not verified by its platform.',
    description:
      'Such an order is stored (the platform got its usual answer) but is not its account\'s yet: no order event, no status push (409 ORDER_WITHHELD). ' +
      'When the integration is verified (integrations-api), its withheld orders are released to it in the order they arrived. No customer details are listed.',
  })
  @ApiOkResponse({ type: WithheldOrdersDto })
  @ApiProblems([422, 'VALIDATION_ERROR: bad platform or limit.'])
  async list(@Query() query: WithheldOrdersQuery): Promise<WithheldOrdersDto> {
    const platform = query.platform !== undefined ? this.registry.byWireCode(query.platform) : undefined;
    if (query.platform !== undefined && !platform) {
      throw new ProblemException(422, ErrorCode.ValidationError, 'The request has invalid fields.', [
        { field: 'platform', message: `must be one of ${this.registry.list().map((entry) => entry.wireCode).join(', ')}` },
      ]);
    }
    const rows = await this.orders.listWithheld(query.limit ?? 100, platform?.code);
    return {
      data: rows.map((row) => ({ ...row, platform: this.registry.wireCodeOf(row.platform), receivedAt: new Date(row.receivedAt).toISOString() })),
    };
  }
}
