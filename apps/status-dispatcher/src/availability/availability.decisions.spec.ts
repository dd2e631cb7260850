import { decidePlatformReport, MAX_UNTIL_AHEAD_MS, productRequestProblem, sameAvailability, storeRequestProblem } from './availability.decisions';

const NOW = new Date('2026-11-26T12:00:00Z');
const later = (ms: number) => new Date(NOW.getTime() + ms);

describe('storeRequestProblem', () => {
  it.each([
    ['OPEN', {}, undefined],
    ['CLOSED', {}, undefined],
    ['CLOSED until an hour ahead', { state: 'CLOSED', until: later(3_600_000) }, undefined],
    ['BUSY with minutes', { state: 'BUSY', busyMinutes: 20 }, undefined],
    ['BUSY with minutes until later', { state: 'BUSY', busyMinutes: 20, until: later(60_000) }, undefined],
    ['BUSY without minutes', { state: 'BUSY' }, 'VALIDATION_ERROR busyMinutes'],
    ['CLOSED with minutes', { state: 'CLOSED', busyMinutes: 5 }, 'VALIDATION_ERROR busyMinutes'],
    ['OPEN with until', { state: 'OPEN', until: later(60_000) }, 'VALIDATION_ERROR until'],
    ['until now', { state: 'CLOSED', until: NOW }, 'UNTIL_IN_PAST until'],
    ['until in the past', { state: 'CLOSED', until: later(-1) }, 'UNTIL_IN_PAST until'],
    ['until at the longest', { state: 'CLOSED', until: later(MAX_UNTIL_AHEAD_MS) }, undefined],
    ['until too far', { state: 'CLOSED', until: later(MAX_UNTIL_AHEAD_MS + 1) }, 'VALIDATION_ERROR until'],
  ] as const)('%s', (_name, request, expected) => {
    const problem = storeRequestProblem({ state: 'OPEN', ...request } as Parameters<typeof storeRequestProblem>[0], NOW);
    expect(problem && `${problem.code} ${problem.field}`).toBe(expected);
  });
});

describe('productRequestProblem', () => {
  it.each([
    [{ available: false }, undefined],
    [{ available: true }, undefined],
    [{ available: false, until: later(60_000) }, undefined],
    [{ available: true, until: later(60_000) }, 'VALIDATION_ERROR until'],
    [{ available: false, until: later(-60_000) }, 'UNTIL_IN_PAST until'],
  ])('%j', (request, expected) => {
    const problem = productRequestProblem(request, NOW);
    expect(problem && `${problem.code} ${problem.field}`).toBe(expected);
  });
});

describe('sameAvailability', () => {
  it('counts busy as taking orders, like open', () => {
    expect(sameAvailability('BUSY', 'OPEN')).toBe(true);
    expect(sameAvailability('OPEN', 'BUSY')).toBe(true);
    expect(sameAvailability('CLOSED', 'CLOSED')).toBe(true);
    expect(sameAvailability('OPEN', 'CLOSED')).toBe(false);
    expect(sameAvailability('BUSY', 'CLOSED')).toBe(false);
    expect(sameAvailability('CLOSED', 'OPEN')).toBe(false);
  });
});

describe('decidePlatformReport', () => {
  const facts = { asked: 'OPEN' as const, commandPending: false, reported: 'OPEN' as const, previouslySeen: null, lastPublished: null };

  it('confirms what was asked, exactly; busy reported open is neither a confirmation nor a change', () => {
    expect(decidePlatformReport(facts)).toEqual({ publish: false, confirms: true, lastPublished: null });
    expect(decidePlatformReport({ ...facts, asked: 'BUSY' })).toEqual({ publish: false, confirms: false, lastPublished: null });
  });

  it('publishes a state differing from the one asked once, until it comes back as asked', () => {
    const first = decidePlatformReport({ ...facts, reported: 'CLOSED' });
    expect(first).toEqual({ publish: true, confirms: false, lastPublished: 'CLOSED' });
    expect(decidePlatformReport({ ...facts, reported: 'CLOSED', lastPublished: first.lastPublished })).toEqual({ publish: false, confirms: false, lastPublished: 'CLOSED' });
    const back = decidePlatformReport({ ...facts, reported: 'OPEN', lastPublished: 'CLOSED' });
    expect(back).toEqual({ publish: false, confirms: true, lastPublished: null });
    expect(decidePlatformReport({ ...facts, reported: 'CLOSED', lastPublished: back.lastPublished }).publish).toBe(true);
  });

  it('publishes a store opened by the platform while it was asked closed', () => {
    expect(decidePlatformReport({ ...facts, asked: 'CLOSED', reported: 'OPEN' })).toEqual({ publish: true, confirms: false, lastPublished: 'OPEN' });
  });

  it('publishes nothing while a command of ours is on its way (the platform may not have it yet)', () => {
    expect(decidePlatformReport({ ...facts, reported: 'CLOSED', commandPending: true })).toEqual({ publish: false, confirms: false, lastPublished: null });
    expect(decidePlatformReport({ ...facts, reported: 'CLOSED', commandPending: true, lastPublished: 'CLOSED' }).lastPublished).toBe('CLOSED');
  });

  it('with nothing asked: publishes a change from the state seen before, not the first one seen', () => {
    const none = { ...facts, asked: null };
    expect(decidePlatformReport({ ...none, reported: 'CLOSED' })).toEqual({ publish: false, confirms: false, lastPublished: null });
    expect(decidePlatformReport({ ...none, reported: 'CLOSED', previouslySeen: 'OPEN' })).toEqual({ publish: true, confirms: false, lastPublished: 'CLOSED' });
    expect(decidePlatformReport({ ...none, reported: 'CLOSED', previouslySeen: 'CLOSED' }).publish).toBe(false);
  });
});
