import { ProblemException } from '@courier/http';
import { createThirdPartyOrder, DispatcherMedium, startDispatcherMedium } from '../../test/medium';
import { OrderLifecycleService } from './order-lifecycle.service';

/** Order transitions with the real order repository on PostgreSQL: the move, its history row and its event, or nothing. */
describe('OrderLifecycleService (medium)', () => {
  let m: DispatcherMedium;
  let sut: OrderLifecycleService;

  beforeAll(async () => {
    m = await startDispatcherMedium();
    sut = m.ctx.get(OrderLifecycleService);
  });
  afterAll(() => m?.close());

  const rowsOf = async (id: string) => ({
    order: (await m.db.sql('SELECT status, sequence FROM orders WHERE id = $1', [id]))[0],
    history: await m.db.sql('SELECT sequence, status, trigger FROM order_status_changes WHERE order_id = $1 ORDER BY sequence', [id]),
    events: (await m.db.sql<{ routing_key: string }>("SELECT routing_key FROM outbox_messages WHERE payload->>'yemekKuryeOrderId' = $1 ORDER BY created_at, id", [id])).map((row) => row.routing_key),
  });

  it('creates the order from order.created once, in NEW, with its opening event', async () => {
    const id = await createThirdPartyOrder(m.ctx);
    expect(await rowsOf(id)).toEqual({ order: { status: 'NEW', sequence: 0 }, history: [{ sequence: 0, status: 'NEW', trigger: null }], events: ['order.opened'] });
  });

  it('moves an order along the table: each move its history row and one event, in order', async () => {
    const id = await createThirdPartyOrder(m.ctx);
    const wakesBefore = m.ctx.wakes.enqueued;

    await expect(sut.transition(id, { trigger: 'APPROVE' } as never)).resolves.toMatchObject({ status: 'VALIDATED' });
    await expect(sut.transition(id, { trigger: 'PREPARE' } as never)).resolves.toMatchObject({ status: 'PREPARED' });
    await expect(sut.transition(id, { trigger: 'CANCEL', cancelReasonId: 'CUSTOMER_REQUEST', reason: 'Changed their mind' } as never)).resolves.toMatchObject({ status: 'CANCELED' });

    expect(await rowsOf(id)).toEqual({
      order: { status: 'CANCELED', sequence: 3 },
      history: [
        { sequence: 0, status: 'NEW', trigger: null },
        { sequence: 1, status: 'VALIDATED', trigger: 'APPROVE' },
        { sequence: 2, status: 'PREPARED', trigger: 'PREPARE' },
        { sequence: 3, status: 'CANCELED', trigger: 'CANCEL' },
      ],
      events: ['order.opened', 'order.status_changed', 'order.status_changed', 'order.canceled'],
    });
    expect(m.ctx.wakes.enqueued - wakesBefore).toBe(3);
  });

  it('refuses a move the table forbids (409) and writes nothing', async () => {
    const id = await createThirdPartyOrder(m.ctx);
    const before = await rowsOf(id);

    const refusal = await sut.transition(id, { trigger: 'DELIVER' } as never).then(() => undefined, (error: unknown) => error as ProblemException);

    expect(refusal).toBeInstanceOf(ProblemException);
    expect(refusal!.getStatus()).toBe(409);
    expect(await rowsOf(id)).toEqual(before);
  });

  it('decides concurrent moves of one order one after the other: one wins, the other is refused', async () => {
    const id = await createThirdPartyOrder(m.ctx);
    const results = await Promise.allSettled([sut.transition(id, { trigger: 'APPROVE' } as never), sut.transition(id, { trigger: 'APPROVE' } as never)]);

    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect(await rowsOf(id)).toMatchObject({ order: { status: 'VALIDATED', sequence: 1 }, history: [{ sequence: 0, status: 'NEW' }, { sequence: 1, status: 'VALIDATED' }] });
    expect((await rowsOf(id)).history).toHaveLength(2);
  });

  it('answers 404 for an order it does not know', async () => {
    const refusal = await sut.transition('00000000-0000-4000-8000-000000000000', { trigger: 'APPROVE' } as never).then(() => undefined, (error: unknown) => error as ProblemException);
    expect(refusal!.getStatus()).toBe(404);
    expect(refusal!.code).toBe('ORDER_NOT_FOUND');
  });
});
