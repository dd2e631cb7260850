import { Controller, MessageEvent, Req, Sse } from '@nestjs/common';
import type { Request } from 'express';
import { ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Observable } from 'rxjs';
import { ReceiverEvents } from './receiver-events.service';

@ApiTags('dashboard')
@Controller('api/events')
export class EventsController {
  constructor(private readonly events: ReceiverEvents) {}

  @Sse()
  @ApiOperation({
    summary: 'Live stream of what the receiver records (server-sent events)',
    description: 'Events: `ready` on connect, `webhook` for every delivery received, `order` for every sent order or status change, `track` for every order (sent here or not) whose statuses changed (as in GET /api/tracked-orders).',
  })
  @ApiProduces('text/event-stream')
  stream(@Req() req: Request): Observable<MessageEvent> {
    return this.events.stream(req.res);
  }
}
