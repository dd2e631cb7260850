import { Inject, Injectable, Logger } from '@nestjs/common';
import { ProblemException } from '@courier/http';
import { RECEIVER_CONFIG } from '../receiver.tokens';
import { ReceiverConfig } from '../receiver.config';
import { ReceiverStore } from '../state/receiver-state.store';
import type { MoveOrderDto } from './dto/move-order.dto';

/** The step that follows each status on the happy path (interface.md's status table). */
export const NEXT_TRIGGER: Readonly<Record<string, string>> = {
  NEW: 'APPROVE',
  VALIDATED: 'ASSIGN',
  ROUTED: 'ASSIGN',
  ASSIGNED: 'ACCEPT',
  ACCEPTED: 'PREPARE',
  PREPARED: 'PICK_UP',
  ON_DELIVERY: 'DELIVER',
};

export interface MoveStep {
  trigger: string;
  httpStatus: number;
  /** The order's status after the step (the service's answer), or its error code. */
  status?: string;
  code?: string;
}

export interface MoveResult {
  orderId: string;
  yemekKuryeOrderId: string;
  status: string | null;
  steps: MoveStep[];
}

/**
 * Moves a sent order through its life as the courier core does, through the service's
 * `POST /internal/orders/{yemekKuryeOrderId}/transitions` (SERVICE_INTERNAL_URL with
 * SERVICE_INTERNAL_API_KEY): so that, next to the one-machine suite, the dashboard shows the whole
 * flow of webhooks without a terminal. Each step is one call; the order's status comes from the
 * service's answers, not from the webhooks (which may arrive later, or out of order).
 */
@Injectable()
export class OrderMovesService {
  private readonly logger = new Logger(OrderMovesService.name);

  constructor(
    @Inject(RECEIVER_CONFIG) private readonly config: ReceiverConfig,
    private readonly store: ReceiverStore,
  ) {}

  get enabled(): boolean {
    return Boolean(this.config.SERVICE_INTERNAL_URL && this.config.SERVICE_INTERNAL_API_KEY);
  }

  async move(orderId: string, request: MoveOrderDto): Promise<MoveResult> {
    if (!this.enabled) {
      throw new ProblemException(409, 'MOVES_NOT_CONFIGURED', 'Orders move when the courier core calls POST {pos_url}/internal/orders/{yemekKuryeOrderId}/transitions. Set SERVICE_INTERNAL_URL and SERVICE_INTERNAL_API_KEY to move them from here (the one-machine mode does).');
    }
    const sent = this.store.state.listOrders().find((order) => order.orderId === orderId && order.yemekKuryeOrderId);
    if (!sent?.yemekKuryeOrderId) throw new ProblemException(404, 'ORDER_NOT_FOUND', 'This receiver sent no accepted order with this orderId.');
    const id = sent.yemekKuryeOrderId;
    let status = await this.currentStatus(id);
    const steps: MoveStep[] = [];
    const step = async (trigger: string, extra: Record<string, unknown> = {}) => {
      const answer = await this.call('POST', `/internal/orders/${id}/transitions`, { trigger, ...extra });
      const body = answer.body as { status?: string; code?: string } | null;
      steps.push({ trigger, httpStatus: answer.status, ...(answer.status === 200 ? { status: body?.status } : { code: body?.code }) });
      if (answer.status === 200 && body?.status) status = body.status;
      return answer.status === 200;
    };
    if (request.action === 'cancel') {
      await step('CANCEL', { cancelReasonId: request.cancelReasonId ?? 'OTHER', canceledBy: 'Restaurant', ...(request.reason ? { reason: request.reason } : {}) });
    } else {
      // At most one step per row of the happy path; stops at the first refusal (its code is in the answer).
      for (let guard = 0; guard < Object.keys(NEXT_TRIGGER).length; guard += 1) {
        const trigger = status ? NEXT_TRIGGER[status] : undefined;
        if (!trigger) break;
        if (!(await step(trigger)) || request.action === 'next') break;
      }
    }
    this.logger.log({ orderId, yemekKuryeOrderId: id, action: request.action, steps: steps.map((entry) => `${entry.trigger}:${entry.httpStatus}`) }, 'order moved from the dashboard');
    return { orderId, yemekKuryeOrderId: id, status, steps };
  }

  /**
   * The order's status in the lifecycle. Right after intake's 202 the lifecycle may not know the
   * order yet (intake says RECEIVED until it does): wait for it, within SERVICE_TIMEOUT_MS.
   */
  private async currentStatus(id: string): Promise<string | null> {
    const deadline = Date.now() + this.config.SERVICE_TIMEOUT_MS;
    for (;;) {
      const answer = await this.call('GET', `/internal/orders/${id}`);
      if (answer.status === 200) return (answer.body as { status?: string }).status ?? null;
      if (answer.status !== 404 || Date.now() > deadline) {
        throw new ProblemException(502, 'SERVICE_REFUSED', `The service answered ${answer.status} to GET /internal/orders/${id}.`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  private async call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    const url = `${this.config.SERVICE_INTERNAL_URL!.replace(/\/+$/, '')}${path}`;
    try {
      const response = await fetch(url, {
        method,
        headers: { 'X-Internal-Api-Key': this.config.SERVICE_INTERNAL_API_KEY!, Accept: 'application/json', ...(body ? { 'Content-Type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.config.SERVICE_TIMEOUT_MS),
      });
      const text = await response.text();
      let parsed: unknown = null;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = null;
      }
      return { status: response.status, body: parsed };
    } catch (error) {
      throw new ProblemException(502, 'SERVICE_UNREACHABLE', `Could not reach ${url}: ${(error as Error).name === 'TimeoutError' ? 'timed out' : (error as Error).message}`);
    }
  }
}
