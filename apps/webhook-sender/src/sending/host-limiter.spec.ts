import { HostLimiter, hostKey } from './host-limiter';

describe('HostLimiter', () => {
  it('holds at most perHost exchanges per host; other hosts are not affected', async () => {
    const limiter = new HostLimiter({ perHost: 2, maxWaitMs: 20 });
    expect(await limiter.acquire('slow.example')).toBeDefined();
    expect(await limiter.acquire('slow.example')).toBeDefined();
    expect(limiter.inFlight('slow.example')).toBe(2);
    const started = Date.now();
    await expect(limiter.acquire('slow.example')).resolves.toBeUndefined();
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
    expect(await limiter.acquire('fast.example')).toBeDefined();
    expect(limiter.inFlight('fast.example')).toBe(1);
  });

  it('hands a freed slot to the first delivery waiting', async () => {
    const limiter = new HostLimiter({ perHost: 1 });
    const first = (await limiter.acquire('h'))!;
    const order: string[] = [];
    const second = limiter.acquire('h').then((release) => (order.push('second'), release));
    const third = limiter.acquire('h').then((release) => (order.push('third'), release));
    first(3);
    (await second)!(3);
    (await third)!(3);
    expect(order).toEqual(['second', 'third']);
    expect(limiter.inFlight('h')).toBe(0);
  });

  it('claim limits: a fast or unknown host may take its slots and as many waiting; a slow one only its free slots, the rest put off at its pace', async () => {
    const limiter = new HostLimiter({ perHost: 4, slowMs: 100 });
    expect(limiter.claimLimits()).toEqual({});
    expect(limiter.defaultAllowance).toBe(8);
    const fast = await Promise.all([1, 2, 3].map(() => limiter.acquire('fast')));
    (await limiter.acquire('slow'))!(2_000);
    const slowHeld = await Promise.all([1, 2, 3].map(() => limiter.acquire('slow')));
    expect(limiter.claimLimits()).toEqual({ fast: { allowance: 5 }, slow: { allowance: 1, deferStepMs: 500 } });
    fast.forEach((release) => release!(2));
    slowHeld.forEach((release) => release!(2_000));
    expect(limiter.claimLimits()).toEqual({});
  });

  it('puts off a delivery that found no slot by the host\'s pace', async () => {
    const limiter = new HostLimiter({ perHost: 1, random: () => 0.5 });
    (await limiter.acquire('h'))!(40);
    expect(limiter.retryDelayMs('h')).toBe(40);
    expect(limiter.retryDelayMs('never-seen')).toBe(1_000);
  });

  it('a slot is given back once, however often release is called', async () => {
    const limiter = new HostLimiter({ perHost: 1 });
    const release = (await limiter.acquire('h'))!;
    release();
    release();
    expect(limiter.inFlight('h')).toBe(0);
    expect(await limiter.acquire('h')).toBeDefined();
    expect(limiter.inFlight('h')).toBe(1);
  });

  it('keys receivers by host and port as written, in lower case', () => {
    expect(hostKey('https://Hooks.Example.com:8443/a?b#c')).toBe('hooks.example.com:8443');
    expect(hostKey('http://127.0.0.1:4444/webhook/status')).toBe('127.0.0.1:4444');
    expect(hostKey('https://[::1]/x')).toBe('[::1]');
    expect(hostKey('not a url')).toBe('not a url');
  });
});
