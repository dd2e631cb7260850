import type { FieldError } from '@courier/contracts';
import type { ParsedPlatformOrder } from '../../common/platform-adapter';
import { isRecord } from '../../common/payload-reader';

/** The example platform's new-order webhook body, as its simulator sends it. */
export interface ExampleOrderBody {
  id: string;
  storeId: string;
  number: string;
  customer: string;
  address: string;
  items: Array<{ name: string; quantity: number; price: number }>;
}

const text = (value: unknown) => (typeof value === 'string' && value.length > 0 && value.length <= 256 ? value : undefined);

/** The webhook body as a platform order (every field required; the items' prices in TRY). */
export function parseExampleOrder(body: unknown): ParsedPlatformOrder {
  const errors: FieldError[] = [];
  const record = isRecord(body) ? body : {};
  const field = (name: keyof ExampleOrderBody) => {
    const value = text(record[name]);
    if (value === undefined) errors.push({ field: name, message: 'is required (a string of at most 256 characters)' });
    return value ?? '';
  };
  const id = field('id');
  const storeId = field('storeId');
  const number = field('number');
  const customer = field('customer');
  const address = field('address');
  const items = Array.isArray(record.items) ? record.items.filter(isRecord) : [];
  if (items.length === 0) errors.push({ field: 'items', message: 'must list at least one item' });
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    order: {
      platformOrderId: id,
      providerRestaurantId: storeId,
      orderNumber: number,
      state: 'new',
      scheduledDeliveryTime: null,
      details: {
        customerName: customer,
        deliveryAddress: address,
        currency: 'TRY',
        items: items.map((item) => ({ productName: String(item.name), quantity: Number(item.quantity), unitPrice: Number(item.price) })),
      },
      platformData: {},
    },
  };
}
