import type { PlatformBRejectReason } from './yemeksepeti.assumptions';

/**
 * Documented (OH talabat-plugin.controller.ts and talabat-order.service.ts, quoting the POS Plugin
 * API): the middleware treats any status outside this set as unexpected, retries 429 and 5xx (up to
 * 10 times, 30 s to 240 s apart) and never retries a 400 or a 401.
 */
export const PLATFORM_B_PLUGIN_STATUSES = [200, 201, 202, 400, 401, 429, 450, 500, 502] as const;

/** The `reason` of a refusal the middleware reads: one of its rejection reasons, or UNAUTHORIZED on a 401 (OH). */
export type PlatformBPluginReason = PlatformBRejectReason | 'UNAUTHORIZED';

/** A refusal as the middleware gets it: the status, and DH's `{ reason, message }` beside our problem fields. */
export interface PlatformBPluginRefusal {
  status: (typeof PLATFORM_B_PLUGIN_STATUSES)[number];
  reason: PlatformBPluginReason;
}

const ALLOWED = new Set<number>(PLATFORM_B_PLUGIN_STATUSES);

/**
 * What the plugin answers for a refusal we would otherwise answer with `status` (any route, any
 * source: guard, body reader, depth scan, validation, handler). Statuses of the set stay; any other
 * 5xx becomes 500 (still retried: the cause is ours and passes); any other 4xx (403, 404, 405, 409,
 * 413, 415, 422) becomes 400 (not retried: the same request cannot succeed). `reason` keeps the
 * handler's own when it set one, else 401 UNAUTHORIZED, 400 MENU_ACCOUNT_SETTINGS (B's advice for a
 * request the POS cannot map), 429 and 5xx TECHNICAL_PROBLEM (OH's reason for a 500).
 */
export function platformBPluginRefusal(status: number, reason?: PlatformBPluginReason): PlatformBPluginRefusal {
  const mapped = (ALLOWED.has(status) && status >= 400 ? status : status >= 500 ? 500 : 400) as PlatformBPluginRefusal['status'];
  if (reason) return { status: mapped, reason };
  if (mapped === 401) return { status: mapped, reason: 'UNAUTHORIZED' };
  if (mapped === 400 || mapped === 450) return { status: mapped, reason: 'MENU_ACCOUNT_SETTINGS' };
  return { status: mapped, reason: 'TECHNICAL_PROBLEM' };
}

/**
 * Why no live integration holds a vendor the middleware names, and what the plugin answers. The
 * vendor may appear soon (never held here: an integration being set up, or our read model a few
 * seconds behind integrations-api): 500, so the middleware retries. It never will (every holder
 * deleted or displaced by another account): 400, so the order fails at once on the platform instead
 * of after ten retries. Paused (integration inactive or account disabled): 400 CLOSED, a choice: intake
 * was stopped on purpose, and a retried order would reach the restaurant minutes late when it
 * resumes, or be cancelled by the platform after the customer waited through the retries.
 */
export type PlatformBVendorState = 'unknown' | 'gone' | 'paused';

export function platformBVendorRefusal(state: PlatformBVendorState): PlatformBPluginRefusal {
  if (state === 'unknown') return { status: 500, reason: 'TECHNICAL_PROBLEM' };
  if (state === 'gone') return { status: 400, reason: 'MENU_ACCOUNT_SETTINGS' };
  return { status: 400, reason: 'CLOSED' };
}
