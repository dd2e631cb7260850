import type { StoreAvailabilityState } from '../common/platform-availability';
import { isRecord } from '../common/payload-reader';

/** One closure of DH's availability notice (yemeksepeti.assumptions.ts, PLATFORM_B_INBOUND_AVAILABILITY_PATH). */
export interface PlatformBClosure {
  reason: string;
  start: Date;
  end?: Date;
  changeable: boolean;
}

/**
 * What DH's `PUT /remoteId/{remoteId}/availability { timestamp, closures? }` says, read at `now`:
 * CLOSED while a closure has started and not ended (until its end when every such closure has one;
 * `changeable` false when any of them is DH's own), else OPEN. `timestamp` orders notices: one older
 * than the last applied is to be ignored (the plugin spec, as TB quotes it).
 */
export type PlatformBAvailabilityUpdate =
  | { ok: true; timestamp: Date; state: Extract<StoreAvailabilityState, 'OPEN' | 'CLOSED'>; until?: Date; reason?: string; changeable: boolean; closures: PlatformBClosure[] }
  | { ok: false; errors: Array<{ field: string; message: string }> };

function dateOf(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms) : undefined;
}

export function parsePlatformBAvailabilityUpdate(body: unknown, now: Date): PlatformBAvailabilityUpdate {
  if (!isRecord(body)) return { ok: false, errors: [{ field: 'body', message: 'must be a JSON object' }] };
  const errors: Array<{ field: string; message: string }> = [];
  const timestamp = dateOf(body.timestamp);
  if (!timestamp) errors.push({ field: 'timestamp', message: 'must be an ISO 8601 date-time' });
  if (body.closures !== undefined && body.closures !== null && !Array.isArray(body.closures)) errors.push({ field: 'closures', message: 'must be an array' });
  const closures: PlatformBClosure[] = [];
  (Array.isArray(body.closures) ? body.closures : []).forEach((raw: unknown, index) => {
    const at = `closures[${index}]`;
    if (!isRecord(raw)) return void errors.push({ field: at, message: 'must be an object' });
    const start = dateOf(raw.start);
    const end = raw.end === undefined || raw.end === null ? undefined : dateOf(raw.end);
    if (typeof raw.reason !== 'string' || raw.reason.length === 0) errors.push({ field: `${at}.reason`, message: 'must be a non-empty string' });
    if (!start) errors.push({ field: `${at}.start`, message: 'must be an ISO 8601 date-time' });
    if (raw.end !== undefined && raw.end !== null && !end) errors.push({ field: `${at}.end`, message: 'must be an ISO 8601 date-time or null' });
    if (typeof raw.reason === 'string' && start) closures.push({ reason: raw.reason, start, ...(end ? { end } : {}), changeable: raw.changeable === true });
  });
  if (errors.length > 0 || !timestamp) return { ok: false, errors };
  const active = closures.filter((closure) => closure.start.getTime() <= now.getTime() && (!closure.end || closure.end.getTime() > now.getTime()));
  if (active.length === 0) return { ok: true, timestamp, state: 'OPEN', changeable: true, closures };
  const ends = active.map((closure) => closure.end?.getTime());
  const until = ends.every((end): end is number => end !== undefined) ? new Date(Math.max(...ends)) : undefined;
  return { ok: true, timestamp, state: 'CLOSED', ...(until ? { until } : {}), reason: active[0].reason, changeable: active.every((closure) => closure.changeable), closures };
}
