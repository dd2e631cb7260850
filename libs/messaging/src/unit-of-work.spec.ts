import type { DataSource } from 'typeorm';
import { UnitOfWork } from './unit-of-work';

/** compareAndSet against a fake DataSource: which manager each try gets, when the lock comes, what conflicts are reported. */
describe('UnitOfWork.compareAndSet', () => {
  const plain = { name: 'plain' };
  const inTransaction = { name: 'transaction' };
  const dataSource = { manager: plain, transaction: async (work: (manager: unknown) => Promise<unknown>) => work(inTransaction) } as unknown as DataSource;
  const unitOfWork = () => new UnitOfWork(dataSource, { onEnqueued: jest.fn(), onScheduled: jest.fn() });

  it('returns the first write that did not conflict, without a transaction or the lock', async () => {
    const attempt = jest.fn().mockResolvedValueOnce(undefined).mockResolvedValueOnce('written');
    const lock = jest.fn();
    const onConflict = jest.fn();
    await expect(unitOfWork().compareAndSet({ attempts: 3, attempt, lock, onConflict, what: 'x' })).resolves.toBe('written');
    expect(attempt.mock.calls.map(([db]) => db)).toEqual([plain, plain]);
    expect(lock).not.toHaveBeenCalled();
    expect(onConflict.mock.calls).toEqual([[false]]);
  });

  it('after `attempts` conflicts, takes the lock in a transaction and tries once more there', async () => {
    const order: string[] = [];
    const attempt = jest.fn(async (db: unknown) => (order.push(`attempt:${(db as { name: string }).name}`), db === inTransaction ? 'written' : undefined));
    const lock = jest.fn(async (db: unknown) => order.push(`lock:${(db as { name: string }).name}`));
    const onConflict = jest.fn();
    await expect(unitOfWork().compareAndSet({ attempts: 2, attempt, lock, onConflict, what: 'x' })).resolves.toBe('written');
    expect(order).toEqual(['attempt:plain', 'attempt:plain', 'lock:transaction', 'attempt:transaction']);
    expect(onConflict.mock.calls).toEqual([[false], [true]]);
  });

  it('0 attempts: straight to the lock; a conflict under the lock is an error', async () => {
    const attempt = jest.fn().mockResolvedValue(undefined);
    await expect(unitOfWork().compareAndSet({ attempts: 0, attempt, lock: jest.fn(), what: 'push of o1' })).rejects.toThrow('push of o1 conflicted under its row lock');
    expect(attempt.mock.calls.map(([db]) => db)).toEqual([inTransaction]);
  });
});
