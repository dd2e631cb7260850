import { matchPath, SimulatorRequest, SimulatorResponse } from '../common/simulator-server';

/*
 * Migros Yemek's store and product availability calls, built from its evidence (platforms.md
 * "Availability"; the clients named in migros-yemek.assumptions.ts, availability section: the Go client
 * `migros` client.go / types.go (M-go), agrostech/AgrosJet-Render (AJ)), not from our adapter:
 * - `POST /Store/ActivateStore` and `/Store/DeActivateStore { storeId, warehouseId }` (M-go reads the
 *   warehouseId from GetStoreDetail first): the store takes orders or not, until changed again.
 * - `POST /Store/AddStoreOffDate { storeId, storeGroupId, storeOffDateOption: ONE_HOUR | FOUR_HOUR |
 *   NEXT_SHIFT_START }` (M-go's constants; AJ writes NEXT_WORK_HOUR for the last: taken as the same) and
 *   `/Store/RemoveStoreOffDate { storeId, storeGroupId }`: a temporary close that ends by itself.
 * - `POST /Store/GetStoreViewStatus { storeId }` -> `{ status: OPEN | CLOSED, openingTime }` (M-go:
 *   "unix timestamp"; this simulator sends seconds).
 * - `POST /Menu/UpdateProductStatusByStoreId { storeId, productId, status: ACTIVE | PASSIVE }` (productId an
 *   int64 in M-go: a name is refused).
 * Every body is encrypted like Migros' other POSTs (`{ value }`, the simulator's decrypt), every answer
 * is the `{ data, success, errorMessage? }` envelope; the errorCodes are this simulator's own names.
 */

export const SIMULATED_D_OFF_DATE_OPTIONS = ['ONE_HOUR', 'FOUR_HOUR', 'NEXT_SHIFT_START'] as const;
export type SimulatedDOffDateOption = (typeof SIMULATED_D_OFF_DATE_OPTIONS)[number];

export interface SimulatedDStoreAvailability {
  storeId: string;
  /** ActivateStore / DeActivateStore. */
  active: boolean;
  /** AddStoreOffDate: closed until then (epoch ms), and the option it came with. */
  offUntil: number | null;
  offOption: SimulatedDOffDateOption | null;
  /** UpdateProductStatusByStoreId: the products' statuses as last set (absent: ACTIVE). */
  products: Map<string, 'ACTIVE' | 'PASSIVE'>;
  /** Every accepted change, in order (tests read what was asked). */
  changes: Array<{ path: string; body: Record<string, unknown>; at: number }>;
}

export interface PlatformDAvailabilityStore {
  storeId: string;
  storeGroupId: string;
  warehouseId?: number;
}

export interface PlatformDAvailabilityOptions {
  /** How long ONE_HOUR and FOUR_HOUR last (default 1 h and 4 h; tests shorten them). */
  offDateMs?: Partial<Record<'ONE_HOUR' | 'FOUR_HOUR', number>>;
  /** When the store's next shift starts, Istanbul time `HH:MM` (default 11:00). */
  shiftStartsAt?: string;
  now?: () => number;
}

type Decrypted = { plain: Record<string, unknown> } | { refused: SimulatorResponse };

/** The store's default warehouse in GetStoreDetail (migros-yemek.simulator.ts). */
export const SIMULATED_D_DEFAULT_WAREHOUSE_ID = 9001;

function answer(data: unknown): SimulatorResponse {
  return { status: 200, body: { data, success: true } };
}

function refusal(status: number, errorCode: string, errorDetail: string): SimulatorResponse {
  return { status, body: { data: null, success: false, errorMessage: { errorCode, errorTitle: errorCode.replace(/_/g, ' ').toLowerCase(), errorDetail } } };
}

/** Lower-cased keys: the platform's .NET binder reads `storeId` and `StoreId` alike. */
function lowerKeys(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).map(([name, field]) => [name.toLowerCase(), field]));
}

const ISTANBUL_OFFSET_MS = 3 * 3_600_000;

export class PlatformDAvailabilityRoutes {
  readonly stores = new Map<string, SimulatedDStoreAvailability>();

  constructor(
    private readonly options: PlatformDAvailabilityOptions = {},
    /** Told of every accepted product status (the simulator's menu shows it). */
    private readonly onProductStatus?: (storeId: string, productId: string, status: 'ACTIVE' | 'PASSIVE') => void,
  ) {}

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  state(storeId: string): SimulatedDStoreAvailability {
    let state = this.stores.get(storeId);
    if (!state) {
      state = { storeId, active: true, offUntil: null, offOption: null, products: new Map(), changes: [] };
      this.stores.set(storeId, state);
    }
    if (state.offUntil !== null && state.offUntil <= this.now()) Object.assign(state, { offUntil: null, offOption: null });
    return state;
  }

  /** GetStoreDetail's `active`. */
  isActive(storeId: string): boolean {
    return this.state(storeId).active;
  }

  /** Whether customers can order: active and not inside an off date. */
  isOpen(storeId: string): boolean {
    const state = this.state(storeId);
    return state.active && state.offUntil === null;
  }

  /** The availability routes of the store the XApiKey names, or undefined for another path. */
  route(store: PlatformDAvailabilityStore, request: SimulatorRequest, decrypt: () => Decrypted): SimulatorResponse | undefined {
    const known = ['/Store/ActivateStore', '/Store/DeActivateStore', '/Store/AddStoreOffDate', '/Store/RemoveStoreOffDate', '/Store/GetStoreViewStatus', '/Menu/UpdateProductStatusByStoreId'];
    if (!known.includes(request.path)) return undefined;
    if (request.method !== 'POST') return refusal(405, 'METHOD_NOT_ALLOWED', `${request.method} ${request.path} is not an operation of this API`);
    const decrypted = decrypt();
    if ('refused' in decrypted) return decrypted.refused;
    const body = lowerKeys(decrypted.plain);
    if (String(body.storeid ?? '') !== store.storeId) return refusal(400, 'STORE_MISMATCH', 'storeId is not the store of this API key');
    const state = this.state(store.storeId);
    const record = () => state.changes.push({ path: request.path, body: decrypted.plain, at: this.now() });
    switch (request.path) {
      case '/Store/ActivateStore':
      case '/Store/DeActivateStore': {
        if (String(body.warehouseid ?? '') !== String(store.warehouseId ?? SIMULATED_D_DEFAULT_WAREHOUSE_ID)) return refusal(400, 'WAREHOUSE_MISMATCH', 'warehouseId is not the warehouse of this store (GetStoreDetail)');
        state.active = request.path === '/Store/ActivateStore';
        record();
        return answer(null);
      }
      case '/Store/AddStoreOffDate': {
        if (String(body.storegroupid ?? '') !== store.storeGroupId) return refusal(400, 'STORE_GROUP_MISMATCH', 'storeGroupId is not the group of this store');
        const option = body.storeoffdateoption === 'NEXT_WORK_HOUR' ? 'NEXT_SHIFT_START' : body.storeoffdateoption;
        if (!(SIMULATED_D_OFF_DATE_OPTIONS as readonly unknown[]).includes(option)) return refusal(400, 'INVALID_STORE_OFF_DATE_OPTION', `storeOffDateOption must be one of ${SIMULATED_D_OFF_DATE_OPTIONS.join(', ')}`);
        this.closeFor(state, option as SimulatedDOffDateOption);
        record();
        return answer(null);
      }
      case '/Store/RemoveStoreOffDate': {
        if (String(body.storegroupid ?? '') !== store.storeGroupId) return refusal(400, 'STORE_GROUP_MISMATCH', 'storeGroupId is not the group of this store');
        Object.assign(state, { offUntil: null, offOption: null });
        record();
        return answer(null);
      }
      case '/Store/GetStoreViewStatus':
        return answer({ status: this.isOpen(store.storeId) ? 'OPEN' : 'CLOSED', openingTime: state.offUntil === null ? null : Math.floor(state.offUntil / 1000) });
      default: {
        const productId = body.productid;
        // M-go sends an int64: a positive whole number, or its digits in a string (a lenient binder takes both).
        const wholeId = (typeof productId === 'number' && Number.isSafeInteger(productId) && productId > 0) || (typeof productId === 'string' && /^[1-9]\d{0,18}$/.test(productId));
        if (!wholeId) return refusal(400, 'INVALID_PRODUCT', 'productId must be the product\'s numeric id');
        if (body.status !== 'ACTIVE' && body.status !== 'PASSIVE') return refusal(400, 'INVALID_PRODUCT_STATUS', 'status must be ACTIVE or PASSIVE');
        state.products.set(String(productId), body.status);
        this.onProductStatus?.(store.storeId, String(productId), body.status);
        record();
        return answer(null);
      }
    }
  }

  private closeFor(state: SimulatedDStoreAvailability, option: SimulatedDOffDateOption): void {
    const now = this.now();
    const until = option === 'ONE_HOUR' ? now + (this.options.offDateMs?.ONE_HOUR ?? 3_600_000) : option === 'FOUR_HOUR' ? now + (this.options.offDateMs?.FOUR_HOUR ?? 4 * 3_600_000) : this.nextShiftStart(now);
    Object.assign(state, { offUntil: until, offOption: option });
  }

  /** The next time the shift starts (Istanbul, UTC+3 all year), after now. */
  private nextShiftStart(now: number): number {
    const [hours, minutes] = (this.options.shiftStartsAt ?? '11:00').split(':').map(Number);
    const day = 86_400_000;
    const localMidnight = Math.floor((now + ISTANBUL_OFFSET_MS) / day) * day - ISTANBUL_OFFSET_MS;
    const today = localMidnight + (hours * 60 + minutes) * 60_000;
    return today > now ? today : today + day;
  }

  /**
   * `/_simulator/availability`: GET every store's state; POST `.../stores/:storeId/close { option? }`
   * (Migros closes the store: an off date with the option, else deactivated) and `.../open`.
   */
  adminRoute(request: SimulatorRequest, isStore: (storeId: string) => boolean): SimulatorResponse | undefined {
    if (request.method === 'GET' && request.path === '/_simulator/availability') return { status: 200, body: [...this.stores.keys()].map((storeId) => this.view(storeId)) };
    const action = matchPath('/_simulator/availability/stores/:storeId/:action', request.path);
    if (request.method !== 'POST' || !action) return undefined;
    if (!isStore(action.storeId)) return { status: 404, body: { message: 'no such simulated store' } };
    const body = typeof request.body === 'object' && request.body !== null ? (request.body as Record<string, unknown>) : {};
    const state = this.state(action.storeId);
    if (action.action === 'close') {
      if (body.option === undefined) state.active = false;
      else if ((SIMULATED_D_OFF_DATE_OPTIONS as readonly unknown[]).includes(body.option)) this.closeFor(state, body.option as SimulatedDOffDateOption);
      else return { status: 422, body: { message: `option must be one of ${SIMULATED_D_OFF_DATE_OPTIONS.join(', ')}` } };
      return { status: 200, body: this.view(action.storeId) };
    }
    if (action.action === 'open') {
      Object.assign(state, { active: true, offUntil: null, offOption: null });
      return { status: 200, body: this.view(action.storeId) };
    }
    return undefined;
  }

  view(storeId: string): Record<string, unknown> {
    const state = this.state(storeId);
    return {
      storeId,
      open: this.isOpen(storeId),
      active: state.active,
      offUntil: state.offUntil === null ? null : new Date(state.offUntil).toISOString(),
      offOption: state.offOption,
      passiveProducts: [...state.products].filter(([, status]) => status === 'PASSIVE').map(([productId]) => productId),
      changes: state.changes,
    };
  }
}
