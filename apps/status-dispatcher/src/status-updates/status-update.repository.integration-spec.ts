import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { outboxEvent } from '@courier/messaging';
import { TestApp } from '../../test/harness';
import type { OrderStatusChange } from '../orders/order.model';
import { PlatformOrdersService } from '../platform-orders/platform-orders.service';
import { platformAOrder, Platforms, startPlatformApp, startPlatforms, upsertIntegration } from '../../test/platforms';
import type { PushWrite, PushState } from './status-update.model';
import { StatusUpdateRepository } from './status-update.repository';

jest.setTimeout(60_000);

/**
 * StatusUpdateRepository.writePush is the compare-and-set of a push: all of its rows or none, and only when the order is as
 * the push read it. Driven directly here, so that each way a write can lose is checked on its own
 * (the HTTP tests cannot choose which one a race takes).
 */
describe('writePush (the push\'s one conditional statement)', () => {
  let platforms: Platforms;
  let t: TestApp;
  let db: DataSource;
  let updates: StatusUpdateRepository;

  beforeAll(async () => {
    platforms = await startPlatforms();
    t = await startPlatformApp(platforms);
    await upsertIntegration(t, 'PLATFORM_A');
    db = t.app.get(DataSource);
    updates = t.app.get(StatusUpdateRepository);
  });
  afterAll(async () => {
    await t?.close();
    await platforms?.stop();
  });

  async function orderState() {
    const { simulated, yemekKuryeOrderId } = await platformAOrder(platforms, t);
    const [state] = await updates.readPushStates(db.manager, 'PLATFORM_A', simulated.id);
    expect(state).toMatchObject({ accepted: [], lastSeq: 0, order: { id: yemekKuryeOrderId } });
    return state;
  }

  function write(state: PushState, action: 'VERIFY' | 'HANDOVER', move: boolean): PushWrite {
    const now = new Date(Math.max(Date.now(), state.order.statusChangedAt.getTime() + 1));
    const moved = move ? { status: 'ACCEPTED', sequence: state.order.sequence + 1, statusChangedAt: now } : { status: state.order.status, sequence: state.order.sequence, statusChangedAt: state.order.statusChangedAt };
    return {
      update: { id: randomUUID(), orderId: state.order.id, platform: 'PLATFORM_A', providerOrderId: state.order.orderId, action, previousStatus: null, reason: null, state: 'queued', holdReason: null, notBefore: now, acceptedAt: now, correlationId: null },
      seq: state.lastSeq + 1,
      taskDueAt: new Date(now.getTime() + 60_000),
      taskHeaders: {},
      expectedSequence: state.order.sequence,
      moved,
      changes: move ? [{ sequence: moved.sequence, status: 'ACCEPTED', previousStatus: state.order.status, trigger: 'VERIFY' as OrderStatusChange['trigger'], occurredAt: now, reason: null, cancelReasonId: null, canceledBy: null }] : [],
      events: move ? [outboxEvent('order.status_changed', { yemekKuryeOrderId: state.order.id, sequence: moved.sequence })] : [],
    };
  }

  const rowsOf = async (orderId: string) => ({
    updates: await t.sql('SELECT id, seq, action FROM status_updates WHERE order_id = $1 ORDER BY seq', [orderId]),
    tasks: (await t.sql("SELECT count(*)::int AS n FROM scheduled_tasks WHERE payload->>'statusUpdateId' IN (SELECT id::text FROM status_updates WHERE order_id = $1)", [orderId]))[0].n,
    history: await t.sql('SELECT sequence, status FROM order_status_changes WHERE order_id = $1 ORDER BY sequence', [orderId]),
    events: (await t.outbox('order.status_changed', orderId)).length,
    order: (await t.sql('SELECT status, sequence FROM orders WHERE id = $1', [orderId]))[0],
  });

  it('writes the update, its task, the move and its event together', async () => {
    const state = await orderState();
    const initial = await rowsOf(state.order.id);
    const first = write(state, 'VERIFY', true);
    await expect(updates.writePush(db.manager, first)).resolves.toBe(true);
    expect(await rowsOf(state.order.id)).toEqual({
      updates: [{ id: first.update.id, seq: 1, action: 'VERIFY' }],
      tasks: 1,
      history: [...initial.history, { sequence: state.order.sequence + 1, status: 'ACCEPTED' }],
      events: initial.events + 1,
      order: { status: 'ACCEPTED', sequence: state.order.sequence + 1 },
    });
  });

  it('writes nothing when the order moved since the read (its sequence changed)', async () => {
    const state = await orderState();
    await expect(updates.writePush(db.manager, write(state, 'VERIFY', true))).resolves.toBe(true);
    const before = await rowsOf(state.order.id);
    // A second push decided on the same read, for another action: the order is no longer as it read it.
    await expect(updates.writePush(db.manager, write(state, 'HANDOVER', true))).resolves.toBe(false);
    expect(await rowsOf(state.order.id)).toEqual(before);
  });

  it('writes nothing when the order was moved by something else than a push since the read (a platform cancellation)', async () => {
    const state = await orderState();
    await t.app.get(PlatformOrdersService).cancel('PLATFORM_A', state.order.orderId);
    const before = await rowsOf(state.order.id);
    expect(before.order.status).toBe('CANCELED');
    // Decided on the read before the cancellation, at a free seq: only the order's sequence can refuse it.
    await expect(updates.writePush(db.manager, write(state, 'HANDOVER', false))).resolves.toBe(false);
    expect(await rowsOf(state.order.id)).toEqual(before);
  });

  it('writes nothing when another update took its seq, or its action, since the read (no move to compare)', async () => {
    const state = await orderState();
    await expect(updates.writePush(db.manager, write(state, 'VERIFY', false))).resolves.toBe(true);
    const before = await rowsOf(state.order.id);
    await expect(updates.writePush(db.manager, write(state, 'HANDOVER', false))).resolves.toBe(false);
    // Same action at a free seq: the (order, action) index refuses it.
    await expect(updates.writePush(db.manager, { ...write(state, 'VERIFY', false), seq: 2 })).resolves.toBe(false);
    expect(await rowsOf(state.order.id)).toEqual(before);
  });
});
