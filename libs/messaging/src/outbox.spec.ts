import { Outbox } from './outbox';

describe('Outbox.committed', () => {
  it('wakes the relay only when the commit wrote events', () => {
    const wake = jest.fn();
    const outbox = new Outbox(wake);
    for (const none of [0, false]) outbox.committed(none);
    expect(wake).not.toHaveBeenCalled();
    for (const some of [1, 3, true]) outbox.committed(some);
    expect(wake).toHaveBeenCalledTimes(3);
  });
});
