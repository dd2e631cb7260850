import { Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiCredentialsGuard, CurrentAccount } from '@courier/http';
import type { WebhookAccount } from '../repositories/webhook-accounts.model';
import { ApiProblems } from '../common/api-problems';
import { DeliveriesService } from './deliveries.service';
import { RedeliverRateLimitGuard } from './redeliver-rate-limit.guard';
import { DeliveryDetailDto, DeliveryDto, DeliveryPageDto, ListDeliveriesQueryDto } from './dto/deliveries.dto';

const DELIVERY_ID = { name: 'id', format: 'uuid', description: 'The webhook id (X-Webhook-Id).' };

@ApiTags('webhook deliveries')
// Both headers together (one requirement), not either of them.
@ApiSecurity({ 'X-API-Key': [], 'X-API-Secret': [] })
@Controller('api/v1/my/webhooks/deliveries')
@UseGuards(ApiCredentialsGuard)
export class DeliveriesController {
  constructor(private readonly deliveries: DeliveriesService) {}

  @Get()
  @ApiOperation({ summary: 'List the webhooks sent to your receivers', description: 'Newest first, with `{ data, nextCursor }` paging. Filters: status, event, orderId, yemekKuryeOrderId.' })
  @ApiOkResponse({ type: DeliveryPageDto })
  @ApiProblems(401, 422)
  list(@CurrentAccount() account: WebhookAccount, @Query() query: ListDeliveriesQueryDto): Promise<DeliveryPageDto> {
    return this.deliveries.list(account.restaurantId, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One webhook with its body and every attempt (time, URL, status code, latency, error)' })
  @ApiParam(DELIVERY_ID)
  @ApiOkResponse({ type: DeliveryDetailDto })
  @ApiProblems(401, 404)
  get(@CurrentAccount() account: WebhookAccount, @Param('id') id: string): Promise<DeliveryDetailDto> {
    return this.deliveries.get(account.restaurantId, id);
  }

  @Post(':id/redeliver')
  @HttpCode(202)
  @UseGuards(RedeliverRateLimitGuard)
  @ApiOperation({
    summary: 'Send a webhook again now',
    description:
      'Same webhook id and body, fresh signatures and timestamp, to the URL configured now. Whatever the status (delivered, failed, skipped, retrying), a new attempt is made at once and, if it fails, retried on the schedule for up to 3 days. Answers before the attempt is made. At most WEBHOOK_REDELIVER_LIMIT_PER_MINUTE (default 10) a minute per account: past it 429 RATE_LIMIT_EXCEEDED with Retry-After.',
  })
  @ApiParam(DELIVERY_ID)
  @ApiAcceptedResponse({ type: DeliveryDto, description: 'Scheduled: the delivery, now pending.' })
  @ApiProblems(401, 404, 429)
  redeliver(@CurrentAccount() account: WebhookAccount, @Param('id') id: string): Promise<DeliveryDto> {
    return this.deliveries.redeliver(account.restaurantId, id);
  }
}
