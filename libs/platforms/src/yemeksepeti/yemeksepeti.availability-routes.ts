import type { PlatformResponse } from '../common/platform-http';
import { bodyOf, matchPath, SimulatorRequest, SimulatorResponse } from '../common/simulator-server';

/*
 * The Delivery Hero POS middleware's availability calls, built from its evidence (platforms.md
 * "Availability"; the sources named in yemeksepeti.assumptions.ts, availability section:
 * omidmohammadizadeh/orderhub-enterprise talabat-store.service.ts and talabat-types.ts, a PedidosYa
 * responder quoting middlewareExternalApi.yaml, a Foodora NestJS client's DTOs, a Yemeksepeti C#
 * client, FoodpandaMiddlewareClient), not from our adapter:
 * - `GET /v2/chains/{chainCode}/remoteVendors/{remoteId}/availability`: one entry per DH platform the
 *   vendor is on, with `changeable`, the `availabilityStates` / `closingReasons` / `closingMinutes`
 *   that entry takes; 204 (no body) while DH has no answer yet ("ask again shortly").
 * - `PUT` the same path `{ availabilityState, platformKey, platformRestaurantId, closedReason?,
 *   closingMinutes? }`: refused unless the entry is `changeable` and every value is one it lists;
 *   closedReason with every closing state, closingMinutes with CLOSED_UNTIL. A CLOSED_UNTIL ends by itself.
 * - `PUT|POST /v2/chains/{chainCode}/vendors/{remoteId}/catalog/items/availability { globalEntityId,
 *   items, type: ITEM | TOPPING, isAvailable, willBeAvailable?: NEXT_BUSINESS_DAY | AT_TIMESTAMP,
 *   atTimeStamp? }`: 204; type required (DH's docs); globalEntityId may be left out (TB quoting DH: then
 *   every platform of the vendor, our reading); willBeAvailable only when switching off.
 *   `GET .../catalog/items/unavailable` -> `[{ platformVendorId, globalEntityId, status, unavailableItems }]`.
 * - DH closing a vendor itself (too many expired orders, an operator): the entry is CLOSED and not
 *   changeable, and the plugin hears it on `PUT /remoteId/{remoteId}/availability { timestamp, closures }`.
 * An entry may list no availabilityStates / closingReasons / closingMinutes while changeable (DH's own
 * GET sample): then any settable state, any known reason and any positive closingMinutes is taken.
 * Errors are `{ code, message }` (DH's PUT error sample `{ code: POS_ERROR, message }`); the codes are ours.
 */

export const SIMULATED_B_AVAILABILITY_STATES = ['OPEN', 'CLOSED', 'CLOSED_UNTIL', 'CLOSED_TODAY', 'INACTIVE', 'UNKNOWN'] as const;
export type SimulatedBAvailabilityState = (typeof SIMULATED_B_AVAILABILITY_STATES)[number];

/** PosClosingReason of the Foodora client, with TOO_BUSY_KITCHEN (talabat-types.ts). */
export const SIMULATED_B_CLOSING_REASONS = ['CLOSED', 'UPDATES_IN_MENU', 'HOLIDAY_SPECIAL_DAY', 'TECHNICAL_PROBLEM', 'REFURBISHMENT', 'TOO_BUSY_NO_DRIVERS', 'TOO_BUSY_KITCHEN', 'BAD_WEATHER', 'OTHER'];

/** What a PUT may set on an entry whose availabilityStates is empty (UNKNOWN is DH's reading, not a state to set). */
const SETTABLE_STATES: string[] = ['OPEN', 'CLOSED', 'CLOSED_UNTIL', 'CLOSED_TODAY', 'INACTIVE'];

/** "a closed list (30/60/120/...)" (the PedidosYa responder); the tail is ours. */
export const SIMULATED_B_CLOSING_MINUTES = [30, 60, 120, 240];

/** One entry of the availability GET: the vendor on one DH platform. */
export interface SimulatedBAvailabilityEntry {
  platformKey: string;
  platformRestaurantId: string;
  platformId: string;
  platformType: string;
  availabilityState: SimulatedBAvailabilityState;
  changeable: boolean;
  availabilityStates: string[];
  closingReasons: string[];
  closingMinutes: number[];
  closedReason: string | null;
  /** ISO time a CLOSED_UNTIL / CLOSED_TODAY ends (talabat-store.service.ts reads `closedUntil`). */
  closedUntil: string | null;
}

export interface SimulatedBUnavailableItem {
  id: string;
  type: 'ITEM' | 'TOPPING';
  globalEntityId: string;
  /** When it comes back by itself (AT_TIMESTAMP, NEXT_BUSINESS_DAY), or null (until switched on). */
  availableAt: string | null;
}

export interface SimulatedBVendor {
  chainCode: string;
  remoteId: string;
  entries: SimulatedBAvailabilityEntry[];
  unavailable: Map<string, SimulatedBUnavailableItem>;
  /** The next GETs answer 204 (DH has no answer yet). */
  pendingReads: number;
  /** Every accepted PUT, in order (tests read what was asked). */
  changes: Array<Record<string, unknown>>;
}

export interface PlatformBAvailabilityOptions {
  /** The DH platforms a new vendor is on (default: Yemeksepeti, platformKey YS_TR). */
  platforms?: Array<{ platformKey: string; platformType?: string }>;
  closingMinutes?: number[];
  /** How the middleware calls the plugin (the simulator's signed pluginCall). */
  tellPlugin?: (remoteId: string, body: Record<string, unknown>) => Promise<PlatformResponse | undefined>;
  now?: () => number;
}

function refusal(status: number, code: string, message: string): SimulatorResponse {
  return { status, body: { code, message } };
}

/** Istanbul has been UTC+3 all year since 2016: CLOSED_TODAY ends at its next midnight. */
function nextIstanbulMidnight(now: number): number {
  const offset = 3 * 3_600_000;
  const day = 86_400_000;
  return Math.floor((now + offset) / day) * day + day - offset;
}

export class PlatformBAvailabilityRoutes {
  readonly vendors = new Map<string, SimulatedBVendor>();

  constructor(private readonly options: PlatformBAvailabilityOptions = {}) {}

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** A vendor as the middleware has it: known from its first call, open and changeable on every platform. */
  vendor(remoteId: string, chainCode = 'chain'): SimulatedBVendor {
    let vendor = this.vendors.get(remoteId);
    if (!vendor) {
      const platforms = this.options.platforms ?? [{ platformKey: 'YS_TR', platformType: 'YEMEKSEPETI' }];
      vendor = {
        chainCode,
        remoteId,
        entries: platforms.map((platform, index) => ({
          platformKey: platform.platformKey,
          platformRestaurantId: `${index === 0 ? 'ys' : platform.platformKey.toLowerCase()}-${remoteId}`,
          platformId: `${platform.platformKey}-${index + 1}`,
          platformType: platform.platformType ?? platform.platformKey,
          availabilityState: 'OPEN',
          changeable: true,
          availabilityStates: ['OPEN', 'CLOSED', 'CLOSED_UNTIL', 'CLOSED_TODAY'],
          closingReasons: [...SIMULATED_B_CLOSING_REASONS],
          closingMinutes: [...(this.options.closingMinutes ?? SIMULATED_B_CLOSING_MINUTES)],
          closedReason: null,
          closedUntil: null,
        })),
        unavailable: new Map(),
        pendingReads: 0,
        changes: [],
      };
      this.vendors.set(remoteId, vendor);
    }
    this.expire(vendor);
    return vendor;
  }

  /** Timed closes and switched-off items whose time has come are back (the middleware does it by itself). */
  private expire(vendor: SimulatedBVendor): void {
    const now = this.now();
    for (const entry of vendor.entries) {
      if (entry.closedUntil && Date.parse(entry.closedUntil) <= now && (entry.availabilityState === 'CLOSED_UNTIL' || entry.availabilityState === 'CLOSED_TODAY')) {
        Object.assign(entry, { availabilityState: 'OPEN', closedReason: null, closedUntil: null, changeable: true });
      }
    }
    for (const [key, item] of vendor.unavailable) if (item.availableAt && Date.parse(item.availableAt) <= now) vendor.unavailable.delete(key);
  }

  /** The middleware API's availability routes (the caller has checked the bearer token), or undefined. */
  route(request: SimulatorRequest): SimulatorResponse | undefined {
    const store = matchPath('/v2/chains/:chainCode/remoteVendors/:remoteId/availability', request.path);
    if (store && request.method === 'GET') return this.read(this.vendor(store.remoteId, store.chainCode));
    if (store && request.method === 'PUT') return this.change(this.vendor(store.remoteId, store.chainCode), bodyOf(request));
    const items = matchPath('/v2/chains/:chainCode/vendors/:remoteId/catalog/items/availability', request.path);
    // FoodpandaMiddlewareClient sends POST, three other clients PUT: both are taken.
    if (items && (request.method === 'PUT' || request.method === 'POST')) return this.items(this.vendor(items.remoteId, items.chainCode), request.body);
    const unavailable = matchPath('/v2/chains/:chainCode/vendors/:remoteId/catalog/items/unavailable', request.path);
    if (unavailable && request.method === 'GET') return { status: 200, body: this.unavailableOf(this.vendor(unavailable.remoteId, unavailable.chainCode)) };
    return undefined;
  }

  /** DH's sample: one `{ platformVendorId, globalEntityId, status, unavailableItems }` per platform; the item shape inside is ours. */
  private unavailableOf(vendor: SimulatedBVendor): Array<Record<string, unknown>> {
    return vendor.entries.map((entry) => ({
      platformVendorId: entry.platformRestaurantId,
      globalEntityId: entry.platformKey,
      status: 'Success',
      unavailableItems: [...vendor.unavailable.values()].filter((item) => item.globalEntityId === entry.platformKey).map(({ id, type, availableAt }) => ({ id, type, availableAt })),
    }));
  }

  private read(vendor: SimulatedBVendor): SimulatorResponse {
    if (vendor.pendingReads > 0) {
      vendor.pendingReads -= 1;
      return { status: 204 };
    }
    return { status: 200, body: vendor.entries.map((entry) => ({ ...entry })) };
  }

  private change(vendor: SimulatedBVendor, body: Record<string, unknown>): SimulatorResponse {
    const state = body.availabilityState;
    if (typeof state !== 'string' || !(SIMULATED_B_AVAILABILITY_STATES as readonly string[]).includes(state)) return refusal(400, 'INVALID_REQUEST', `availabilityState must be one of ${SIMULATED_B_AVAILABILITY_STATES.join(', ')}`);
    if (typeof body.platformKey !== 'string' || (typeof body.platformRestaurantId !== 'string' && typeof body.platformRestaurantId !== 'number')) {
      return refusal(400, 'INVALID_REQUEST', 'platformKey and platformRestaurantId (from the availability GET) are required');
    }
    const entry = vendor.entries.find((candidate) => candidate.platformKey === body.platformKey && candidate.platformRestaurantId === String(body.platformRestaurantId));
    if (!entry) return refusal(404, 'PLATFORM_VENDOR_NOT_FOUND', `the vendor is not on ${body.platformKey} as ${String(body.platformRestaurantId)}`);
    if (!entry.changeable) return refusal(400, 'AVAILABILITY_NOT_CHANGEABLE', `the vendor's availability on ${entry.platformKey} is not changeable (${entry.availabilityState}${entry.closedReason ? `, ${entry.closedReason}` : ''})`);
    // DH's own GET sample lists changeable entries with empty lists: an empty list restricts nothing (TB reads it so).
    const states = entry.availabilityStates.length > 0 ? entry.availabilityStates : SETTABLE_STATES;
    if (!states.includes(state)) return refusal(400, 'AVAILABILITY_STATE_NOT_ALLOWED', `${state} is not one of the entry's availabilityStates (${states.join(', ')})`);
    const now = this.now();
    if (state === 'OPEN') {
      Object.assign(entry, { availabilityState: 'OPEN', closedReason: null, closedUntil: null });
    } else {
      const reasons = entry.closingReasons.length > 0 ? entry.closingReasons : SIMULATED_B_CLOSING_REASONS;
      if (typeof body.closedReason !== 'string' || !reasons.includes(body.closedReason)) return refusal(400, 'INVALID_CLOSED_REASON', `closedReason must be one of the entry's closingReasons (${reasons.join(', ')})`);
      let closedUntil: string | null = null;
      if (state === 'CLOSED_UNTIL') {
        const listed = entry.closingMinutes.length > 0;
        const minutes = typeof body.closingMinutes === 'number' ? body.closingMinutes : Number.NaN;
        const minutesOk = listed ? entry.closingMinutes.includes(minutes) : Number.isInteger(minutes) && minutes > 0;
        if (!minutesOk) return refusal(400, 'INVALID_CLOSING_MINUTES', listed ? `closingMinutes must be one of the entry's closingMinutes (${entry.closingMinutes.join(', ')})` : 'closingMinutes must be a positive whole number of minutes');
        closedUntil = new Date(now + minutes * 60_000).toISOString();
      } else if (state === 'CLOSED_TODAY') {
        closedUntil = new Date(nextIstanbulMidnight(now)).toISOString();
      }
      Object.assign(entry, { availabilityState: state, closedReason: body.closedReason, closedUntil });
    }
    vendor.changes.push({ ...body, at: new Date(now).toISOString() });
    return { status: 200 };
  }

  private items(vendor: SimulatedBVendor, raw: unknown): SimulatorResponse {
    const body = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
    // DH (as TB quotes it): globalEntityId "should be provided if available or can be ignored if unavailable"; absent, every platform of the vendor.
    if (body.globalEntityId !== undefined && (typeof body.globalEntityId !== 'string' || !vendor.entries.some((entry) => entry.platformKey === body.globalEntityId))) {
      return refusal(400, 'INVALID_REQUEST', 'globalEntityId must be a platformKey of the vendor');
    }
    const globalEntityIds = typeof body.globalEntityId === 'string' ? [body.globalEntityId] : vendor.entries.map((entry) => entry.platformKey);
    if (!Array.isArray(body.items) || body.items.length === 0 || !body.items.every((item) => typeof item === 'string' && item.length > 0)) return refusal(400, 'INVALID_REQUEST', 'items must be a non-empty array of item ids');
    const type = body.type;
    if (type !== 'ITEM' && type !== 'TOPPING') return refusal(400, 'INVALID_REQUEST', 'type (required) must be ITEM or TOPPING');
    if (typeof body.isAvailable !== 'boolean') return refusal(400, 'INVALID_REQUEST', 'isAvailable must be a boolean');
    let availableAt: string | null = null;
    if (body.willBeAvailable !== undefined) {
      if (body.isAvailable) return refusal(400, 'INVALID_REQUEST', 'willBeAvailable is only for items switched off');
      if (body.willBeAvailable === 'AT_TIMESTAMP') {
        const at = typeof body.atTimeStamp === 'string' ? Date.parse(body.atTimeStamp) : Number.NaN;
        if (!Number.isFinite(at)) return refusal(400, 'INVALID_REQUEST', 'AT_TIMESTAMP needs atTimeStamp, an ISO 8601 time');
        availableAt = new Date(at).toISOString();
      } else if (body.willBeAvailable === 'NEXT_BUSINESS_DAY') {
        availableAt = new Date(nextIstanbulMidnight(this.now())).toISOString();
      } else {
        return refusal(400, 'INVALID_REQUEST', 'willBeAvailable must be NEXT_BUSINESS_DAY or AT_TIMESTAMP');
      }
    }
    for (const globalEntityId of globalEntityIds) {
      for (const id of body.items as string[]) {
        const key = `${globalEntityId}/${type}/${id}`;
        if (body.isAvailable) vendor.unavailable.delete(key);
        else vendor.unavailable.set(key, { id, type, globalEntityId, availableAt });
      }
    }
    return { status: 204 };
  }

  /**
   * DH closes the vendor itself (B: the middleware closes vendors, e.g. after repeated expired
   * orders, and only DH can reopen those: changeable false) and tells the plugin.
   */
  async closeByPlatform(remoteId: string, options: { reason?: string; minutes?: number; changeable?: boolean } = {}): Promise<PlatformResponse | undefined> {
    const vendor = this.vendor(remoteId);
    const now = this.now();
    const end = options.minutes ? new Date(now + options.minutes * 60_000).toISOString() : null;
    const reason = options.reason ?? 'TOO_MANY_REJECTED_ORDERS';
    for (const entry of vendor.entries) {
      Object.assign(entry, { availabilityState: end ? 'CLOSED_UNTIL' : 'CLOSED', closedReason: reason, closedUntil: end, changeable: options.changeable ?? false });
    }
    return this.tell(vendor, [{ reason, start: new Date(now).toISOString(), end, changeable: options.changeable ?? false }]);
  }

  /** DH opens the vendor again itself and tells the plugin (no closures: open). */
  async openByPlatform(remoteId: string): Promise<PlatformResponse | undefined> {
    const vendor = this.vendor(remoteId);
    for (const entry of vendor.entries) Object.assign(entry, { availabilityState: 'OPEN', closedReason: null, closedUntil: null, changeable: true });
    return this.tell(vendor, []);
  }

  private tell(vendor: SimulatedBVendor, closures: Array<Record<string, unknown>>): Promise<PlatformResponse | undefined> {
    if (!this.options.tellPlugin) return Promise.resolve(undefined);
    // A plugin that cannot be reached is an answer too (status 0), as the dispatch records it.
    return this.options.tellPlugin(vendor.remoteId, { timestamp: new Date(this.now()).toISOString(), closures }).catch((error: unknown) => ({ status: 0, headers: {}, body: String(error) }));
  }

  /**
   * `/_simulator/availability`: GET the vendors' states; POST `.../vendors/:remoteId/close { reason?,
   * minutes?, changeable? }` and `.../open` (DH itself, telling the plugin); POST
   * `.../vendors/:remoteId/pending { reads }` (the next GETs answer 204).
   */
  adminRoute(request: SimulatorRequest): Promise<SimulatorResponse> | SimulatorResponse | undefined {
    if (request.method === 'GET' && request.path === '/_simulator/availability') {
      return { status: 200, body: [...this.vendors.values()].map((vendor) => (this.expire(vendor), this.view(vendor))) };
    }
    const action = matchPath('/_simulator/availability/vendors/:remoteId/:action', request.path);
    if (request.method !== 'POST' || !action) return undefined;
    const body = bodyOf(request);
    const answered = (response: PlatformResponse | undefined) => ({ status: 200, body: { vendor: this.view(this.vendor(action.remoteId)), pluginAnswer: response ? { status: response.status, body: response.body } : null } });
    switch (action.action) {
      case 'close': {
        if (body.minutes !== undefined && (typeof body.minutes !== 'number' || !(body.minutes > 0))) return { status: 422, body: { message: 'minutes must be a positive number' } };
        if (body.reason !== undefined && typeof body.reason !== 'string') return { status: 422, body: { message: 'reason must be a string' } };
        return this.closeByPlatform(action.remoteId, { reason: body.reason as string | undefined, minutes: body.minutes as number | undefined, changeable: body.changeable === true }).then(answered);
      }
      case 'open':
        return this.openByPlatform(action.remoteId).then(answered);
      case 'pending': {
        if (typeof body.reads !== 'number' || !Number.isInteger(body.reads) || body.reads < 0) return { status: 422, body: { message: 'reads must be a non-negative integer' } };
        this.vendor(action.remoteId).pendingReads = body.reads;
        return { status: 200, body: { vendor: this.view(this.vendor(action.remoteId)) } };
      }
      default:
        return undefined;
    }
  }

  view(vendor: SimulatedBVendor): Record<string, unknown> {
    return { chainCode: vendor.chainCode, remoteId: vendor.remoteId, entries: vendor.entries, unavailableItems: [...vendor.unavailable.values()], pendingReads: vendor.pendingReads, changes: vendor.changes };
  }
}
