/** Where the read-your-writes check sends its calls, and as whom. */
export interface ReadYourWritesTarget {
  /** {base_url}: order intake and its status read. */
  intakeUrl: string;
  /** Where `/internal/orders/{id}/transitions` is served ({pos_url} in one-machine mode, status-dispatcher's port otherwise). */
  internalUrl: string;
  restaurantId: string;
  apiKey: string;
  internalApiKey: string;
}

export interface ReadYourWritesResult {
  /** HTTP status of each order's transition (200 expected for every one). */
  transitionStatuses: number[];
  /** The answers that were not 200, for the failure message. */
  refused: Array<{ orderId: string; status: number; body: string }>;
}

/**
 * The promise of intake's status read: once `GET {base_url}/api/v1/orders/{orderId}` says NEW, the
 * lifecycle knows the order. For each of `orders` orders: send it, poll its status until it leaves
 * RECEIVED, and in the same tick move it with APPROVE. Runs `concurrency` orders at a time.
 */
export async function transitionRightAfterFirstNew(target: ReadYourWritesTarget, orders: number, concurrency = 20, prefix = `ryw-${Date.now()}`): Promise<ReadYourWritesResult> {
  const result: ReadYourWritesResult = { transitionStatuses: [], refused: [] };
  let next = 0;
  const one = async (index: number) => {
    const orderId = `${prefix}-${index}`;
    const body = { orderId, restaurantId: target.restaurantId, customerName: 'Read Yourwrites', deliveryAddress: 'Bağdat Cd. 1, Kadıköy, İstanbul', items: [{ productName: 'Ayran', quantity: 1, unitPrice: 20, totalAmount: 20 }], total: 20 };
    const accepted = await fetch(`${target.intakeUrl}/webhook/third-party/order`, { method: 'POST', headers: { 'X-API-Key': target.apiKey, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    if (accepted.status !== 202) throw new Error(`order ${orderId}: intake answered ${accepted.status} ${await accepted.text()}`);
    const { yemekKuryeOrderId } = (await accepted.json()) as { yemekKuryeOrderId: string };
    for (let polls = 0; ; polls += 1) {
      const read = await fetch(`${target.intakeUrl}/api/v1/orders/${encodeURIComponent(orderId)}`, { headers: { 'X-API-Key': target.apiKey } });
      const { status } = (await read.json()) as { status?: string };
      if (status === 'NEW') break;
      if (status !== 'RECEIVED' || polls > 3000) throw new Error(`order ${orderId}: status ${status} after ${polls} polls`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const moved = await fetch(`${target.internalUrl}/internal/orders/${yemekKuryeOrderId}/transitions`, {
      method: 'POST',
      headers: { 'X-Internal-Api-Key': target.internalApiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ trigger: 'APPROVE' }),
    });
    result.transitionStatuses.push(moved.status);
    if (moved.status !== 200) result.refused.push({ orderId, status: moved.status, body: await moved.text() });
  };
  await Promise.all(
    Array.from({ length: Math.min(concurrency, orders) }, async () => {
      while (next < orders) await one(next++);
    }),
  );
  return result;
}
