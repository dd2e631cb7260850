import { PLATFORM_C_CANCEL_REASONS, STORE_DELIVERY } from '../../adapters/platform-c/platform-c.assumptions';
import { bodyOf, matchPath, SimulatorRequest, SimulatorResponse, SimulatorServer } from '../common/simulator-server';

export interface PlatformCSimulatorOptions {
  suppliers: Array<{ supplierId: string; apiKey: string; secretKey: string; storeIds: string[] }>;
}

export type SimulatedCStatus = 'Created' | 'Picked' | 'Invoiced' | 'Shipped' | 'Delivered' | 'Cancelled' | 'UnSupplied';

export interface SimulatedCPackage {
  id: number;
  supplierId: string;
  storeId: string;
  orderNumber: string;
  packageStatus: SimulatedCStatus;
  deliveryType: 'GO' | 'STORE';
  itemIds: number[];
  preparationTime?: number;
  unsuppliedReason?: number;
  packageModificationDate: number;
  extra: Record<string, unknown>;
}

function errors(status: number, message: string): SimulatorResponse {
  return { status, body: { errors: [{ message }] } };
}

const NEXT: Record<string, { from: SimulatedCStatus[]; to: SimulatedCStatus; storeOnly?: boolean }> = {
  picked: { from: ['Created'], to: 'Picked' },
  invoiced: { from: ['Picked'], to: 'Invoiced' },
  'manual-shipped': { from: ['Invoiced'], to: 'Shipped', storeOnly: true },
  'manual-delivered': { from: ['Shipped'], to: 'Delivered', storeOnly: true },
};

/**
 * A simulator of PLATFORM_C (Trendyol Go Yemek's integrator API): Basic auth with apiKey:secretKey,
 * 403 without the `{supplierId} - {integratorName}` User-Agent, the package list filtered by store
 * and modification time with pages, and the package status calls with their order of steps.
 */
export class PlatformCSimulator extends SimulatorServer {
  readonly packages = new Map<number, SimulatedCPackage>();
  private nextId = 700_000_001;
  private nextItemId = 9_000_001;

  constructor(readonly options: PlatformCSimulatorOptions) {
    super();
  }

  /** A new package (status Created), visible to the next poll. */
  addPackage(supplierId: string, storeId: string, overrides: Partial<SimulatedCPackage> = {}): SimulatedCPackage {
    const id = overrides.id ?? this.nextId++;
    const pkg: SimulatedCPackage = {
      id,
      supplierId,
      storeId,
      orderNumber: overrides.orderNumber ?? `TY${id}`,
      packageStatus: overrides.packageStatus ?? 'Created',
      deliveryType: overrides.deliveryType ?? 'STORE',
      itemIds: overrides.itemIds ?? [this.nextItemId++, this.nextItemId++],
      packageModificationDate: overrides.packageModificationDate ?? Date.now(),
      extra: overrides.extra ?? {},
    };
    this.packages.set(id, pkg);
    return pkg;
  }

  /** Cancels a package on the platform; the next poll sees it modified. */
  cancelPackage(id: number): void {
    const pkg = this.packages.get(id)!;
    pkg.packageStatus = 'Cancelled';
    pkg.packageModificationDate = Date.now();
  }

  packageView(pkg: SimulatedCPackage): Record<string, unknown> {
    return {
      id: pkg.id,
      orderNumber: pkg.orderNumber,
      packageStatus: pkg.packageStatus,
      supplierId: Number(pkg.supplierId),
      storeId: pkg.storeId,
      deliveryType: pkg.deliveryType,
      customer: { firstName: 'Zeynep', lastName: 'Kaya' },
      address: { address1: 'Atatürk Bulvarı 100', address2: 'Daire 4', district: 'Çankaya', city: 'Ankara', latitude: 39.9208, longitude: 32.8541, phone: '+905301112233' },
      lines: [{ productId: 'ty-5', name: 'Mantı', price: 95, items: pkg.itemIds.map((id) => ({ id })) }],
      totalPrice: 95 * pkg.itemIds.length,
      customerNote: 'Yoğurt ayrı',
      packageCreationDate: pkg.packageModificationDate,
      packageModificationDate: pkg.packageModificationDate,
      ...pkg.extra,
    };
  }

  protected route(request: SimulatorRequest): SimulatorResponse {
    const base = matchPath('/integrator/order/meal/suppliers/:supplierId/packages', request.path);
    const step = matchPath('/integrator/order/meal/suppliers/:supplierId/packages/:step', request.path);
    const manual = matchPath('/integrator/order/meal/suppliers/:supplierId/packages/:packageId/:step', request.path);
    const supplierId = (base ?? step ?? manual)?.supplierId;
    if (!supplierId) return errors(404, `no route ${request.method} ${request.path}`);

    const supplier = this.options.suppliers.find((entry) => entry.supplierId === supplierId);
    const basic = /^Basic (.+)$/.exec(String(request.headers.authorization ?? ''))?.[1];
    const [apiKey, secretKey] = basic ? Buffer.from(basic, 'base64').toString('utf8').split(':') : [];
    if (!supplier || supplier.apiKey !== apiKey || supplier.secretKey !== secretKey) return errors(401, 'Unauthorized');
    const userAgent = String(request.headers['user-agent'] ?? '');
    if (!userAgent.startsWith(`${supplierId} - `) || userAgent.length <= `${supplierId} - `.length) return errors(403, 'User-Agent must be "{supplierId} - {integratorName}"');

    if (request.method === 'GET' && base) return this.list(supplier.supplierId, request);
    if (request.method === 'PUT' && manual && NEXT[manual.step]) return this.advance(supplier.supplierId, Number(manual.packageId), manual.step);
    if (request.method === 'PUT' && step) {
      const body = bodyOf(request);
      const packageId = Number(body.packageId);
      if (step.step === 'unsupplied') return this.unsupply(supplier.supplierId, packageId, body);
      if (NEXT[step.step] && !NEXT[step.step].storeOnly) {
        if (step.step === 'picked' && (typeof body.preparationTime !== 'number' || body.preparationTime <= 0)) return errors(400, 'preparationTime is required');
        return this.advance(supplier.supplierId, packageId, step.step, typeof body.preparationTime === 'number' ? body.preparationTime : undefined);
      }
    }
    return errors(404, `no route ${request.method} ${request.path}`);
  }

  private list(supplierId: string, request: SimulatorRequest): SimulatorResponse {
    const storeId = request.query.get('storeId');
    const start = Number(request.query.get('packageModificationStartDate'));
    const end = Number(request.query.get('packageModificationEndDate'));
    const page = Number(request.query.get('page') ?? 0);
    const size = Math.min(50, Number(request.query.get('size') ?? 50));
    if (!storeId || !Number.isFinite(start) || !Number.isFinite(end) || end < start || !(size > 0) || !(page >= 0)) return errors(400, 'storeId, packageModificationStartDate, packageModificationEndDate, page and size are required');
    const matching = [...this.packages.values()]
      .filter((pkg) => pkg.supplierId === supplierId && pkg.storeId === storeId && pkg.packageModificationDate >= start && pkg.packageModificationDate <= end)
      .sort((a, b) => a.packageModificationDate - b.packageModificationDate || a.id - b.id);
    const content = matching.slice(page * size, (page + 1) * size).map((pkg) => this.packageView(pkg));
    return { status: 200, body: { page, size, totalPages: Math.ceil(matching.length / size), totalElements: matching.length, content } };
  }

  private own(supplierId: string, packageId: number): SimulatedCPackage | undefined {
    const pkg = this.packages.get(packageId);
    return pkg?.supplierId === supplierId ? pkg : undefined;
  }

  private advance(supplierId: string, packageId: number, step: string, preparationTime?: number): SimulatorResponse {
    const pkg = this.own(supplierId, packageId);
    if (!pkg) return errors(404, 'package not found');
    const rule = NEXT[step];
    if (rule.storeOnly && pkg.deliveryType !== STORE_DELIVERY) return errors(400, `${step} is only for STORE delivery`);
    if (pkg.packageStatus === rule.to) return { status: 200 };
    if (!rule.from.includes(pkg.packageStatus)) return errors(400, `package is ${pkg.packageStatus}: ${step} is not possible`);
    pkg.packageStatus = rule.to;
    if (preparationTime !== undefined) pkg.preparationTime = preparationTime;
    pkg.packageModificationDate = Date.now();
    return { status: 200 };
  }

  private unsupply(supplierId: string, packageId: number, body: Record<string, unknown>): SimulatorResponse {
    const pkg = this.own(supplierId, packageId);
    if (!pkg) return errors(404, 'package not found');
    if (!(PLATFORM_C_CANCEL_REASONS as readonly number[]).includes(Number(body.reasonId))) return errors(400, 'reasonId must be one of 621, 622, 623, 627');
    const items = Array.isArray(body.itemIdList) ? body.itemIdList.map(Number) : [];
    if (items.length === 0 || items.some((id) => !pkg.itemIds.includes(id))) return errors(400, 'itemIdList must list items of the package');
    if (pkg.packageStatus === 'Delivered' || pkg.packageStatus === 'Cancelled') return errors(400, `package is ${pkg.packageStatus}`);
    pkg.packageStatus = 'UnSupplied';
    pkg.unsuppliedReason = Number(body.reasonId);
    pkg.packageModificationDate = Date.now();
    return { status: 200 };
  }

  protected override adminRoute(request: SimulatorRequest): SimulatorResponse | undefined {
    if (request.method === 'GET' && request.path === '/_simulator/packages') return { status: 200, body: [...this.packages.values()] };
    if (request.method === 'POST' && request.path === '/_simulator/packages') {
      const body = bodyOf(request);
      const supplier = this.options.suppliers.find((entry) => entry.supplierId === body.supplierId) ?? this.options.suppliers[0];
      const storeId = typeof body.storeId === 'string' ? body.storeId : supplier?.storeIds[0];
      if (!supplier || !storeId) return { status: 422, body: { message: 'supplierId and storeId are required' } };
      return { status: 201, body: this.addPackage(supplier.supplierId, storeId, { deliveryType: body.deliveryType === 'GO' ? 'GO' : 'STORE' }) };
    }
    const cancel = matchPath('/_simulator/packages/:id/cancel', request.path);
    if (request.method === 'POST' && cancel) {
      if (!this.packages.has(Number(cancel.id))) return { status: 404, body: { message: 'no such package' } };
      this.cancelPackage(Number(cancel.id));
      return { status: 200, body: this.packages.get(Number(cancel.id)) };
    }
    return undefined;
  }
}
