import { Wakeup } from './wakeup';

describe('Wakeup', () => {
  it('ends a wait on a nudge, and remembers a nudge that came while busy', async () => {
    const wakeup = new Wakeup();
    const started = Date.now();
    const waiting = wakeup.sleep(5_000);
    wakeup.nudge();
    await waiting;
    wakeup.nudge();
    await wakeup.sleep(5_000);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('does not end a backoff on a nudge, but does on interrupt', async () => {
    const wakeup = new Wakeup();
    let done = false;
    const waiting = wakeup.sleep(5_000, { onNudge: false }).then(() => (done = true));
    wakeup.nudge();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(done).toBe(false);
    wakeup.interrupt();
    await waiting;
    expect(done).toBe(true);
  });

  it('ends at the timeout without a nudge', async () => {
    const wakeup = new Wakeup();
    const started = Date.now();
    await wakeup.sleep(40);
    expect(Date.now() - started).toBeGreaterThanOrEqual(35);
  });
});
