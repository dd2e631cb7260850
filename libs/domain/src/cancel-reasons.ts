import { FieldError } from './field-error';

/** Who cancelled, as order.canceled carries it in `canceledBy`. */
export const CANCELING_PARTIES = ['Restaurant', 'Courier', 'System'] as const;

export type CanceledBy = (typeof CANCELING_PARTIES)[number];

export const CANCEL_REASON_IDS = [
  'CUSTOMER_REQUEST',
  'OUT_OF_STOCK',
  'WRONG_ADDRESS',
  'CUSTOMER_NOT_AVAILABLE',
  'COURIER_NOT_AVAILABLE',
  'RESTAURANT_CLOSED',
  'OTHER',
] as const;

export type CancelReasonId = (typeof CANCEL_REASON_IDS)[number];

export interface CancelReason {
  readonly id: CancelReasonId;
  readonly meaning: string;
  /** The parties that may cancel for this reason; the first is the default when none is given. */
  readonly canceledBy: readonly CanceledBy[];
}

/**
 * The cancelReasonId / canceledBy table of interface.md. OTHER also allows System (listed first, so
 * it is the default) because an order whose processing failed is cancelled as OTHER by System.
 */
export const CANCEL_REASONS: Readonly<Record<CancelReasonId, CancelReason>> = {
  CUSTOMER_REQUEST: { id: 'CUSTOMER_REQUEST', meaning: 'Customer asked', canceledBy: ['Restaurant'] },
  OUT_OF_STOCK: { id: 'OUT_OF_STOCK', meaning: 'Item unavailable', canceledBy: ['Restaurant'] },
  WRONG_ADDRESS: { id: 'WRONG_ADDRESS', meaning: 'Address not found', canceledBy: ['Courier'] },
  CUSTOMER_NOT_AVAILABLE: { id: 'CUSTOMER_NOT_AVAILABLE', meaning: 'Customer unreachable', canceledBy: ['Courier'] },
  COURIER_NOT_AVAILABLE: { id: 'COURIER_NOT_AVAILABLE', meaning: 'No courier found', canceledBy: ['System'] },
  RESTAURANT_CLOSED: { id: 'RESTAURANT_CLOSED', meaning: 'Restaurant closed', canceledBy: ['System'] },
  OTHER: { id: 'OTHER', meaning: 'Other reasons', canceledBy: ['System', 'Restaurant', 'Courier'] },
};

/** Reason used when no reason is given. */
export const DEFAULT_CANCEL_REASON_ID: CancelReasonId = 'OTHER';

export interface Cancellation {
  cancelReasonId: CancelReasonId;
  canceledBy: CanceledBy;
}

/** What order.canceled carries for a third-party order whose asynchronous processing failed. */
export const PROCESSING_FAILURE_CANCELLATION: Readonly<Cancellation> = { cancelReasonId: 'OTHER', canceledBy: 'System' };

export type CancellationResult = ({ ok: true } & Cancellation) | { ok: false; errors: FieldError[] };

export function isCancelReasonId(value: unknown): value is CancelReasonId {
  return typeof value === 'string' && (CANCEL_REASON_IDS as readonly string[]).includes(value);
}

export function isCanceledBy(value: unknown): value is CanceledBy {
  return typeof value === 'string' && (CANCELING_PARTIES as readonly string[]).includes(value);
}

export function isCanceledByAllowed(cancelReasonId: CancelReasonId, canceledBy: CanceledBy): boolean {
  return CANCEL_REASONS[cancelReasonId].canceledBy.includes(canceledBy);
}

/**
 * Checks a cancellation request and fills in what was left out: no reason means OTHER, no party
 * means the reason's default party. Values are matched exactly, as they travel on the wire.
 */
export function resolveCancellation(request: { cancelReasonId?: string | null; canceledBy?: string | null }): CancellationResult {
  const errors: FieldError[] = [];
  const reasonGiven = request.cancelReasonId !== undefined && request.cancelReasonId !== null;
  const partyGiven = request.canceledBy !== undefined && request.canceledBy !== null;

  if (reasonGiven && !isCancelReasonId(request.cancelReasonId)) {
    errors.push({ field: 'cancelReasonId', message: `must be one of ${CANCEL_REASON_IDS.join(', ')}` });
  }
  if (partyGiven && !isCanceledBy(request.canceledBy)) {
    errors.push({ field: 'canceledBy', message: `must be one of ${CANCELING_PARTIES.join(', ')}` });
  }
  if (errors.length > 0) return { ok: false, errors };

  const cancelReasonId = reasonGiven ? (request.cancelReasonId as CancelReasonId) : DEFAULT_CANCEL_REASON_ID;
  const allowed = CANCEL_REASONS[cancelReasonId].canceledBy;
  const canceledBy = partyGiven ? (request.canceledBy as CanceledBy) : allowed[0];
  if (!allowed.includes(canceledBy)) {
    return {
      ok: false,
      errors: [{ field: 'canceledBy', message: `must be ${allowed.join(' or ')} for cancelReasonId ${cancelReasonId}` }],
    };
  }
  return { ok: true, cancelReasonId, canceledBy };
}
