import { execFileSync } from 'node:child_process';
import path from 'node:path';

// tools/broker/cleanup.mjs is an ES module run by node; its pure selection is checked through node.
const MODULE = path.join(__dirname, 'cleanup.mjs');
function call<T>(fn: string, ...args: unknown[]): T {
  const script = `import(${JSON.stringify(MODULE)}).then((m) => process.stdout.write(JSON.stringify(m.${fn}(...${JSON.stringify(args)}) ?? null)))`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as T;
}

const NOW = Date.UTC(2026, 10, 21, 22, 0, 0);
const t36 = (ms: number) => ms.toString(36);

describe('broker cleanup: which names are test namespaces', () => {
  it('recognises test and bench namespaces with their creation time and run id', () => {
    expect(call('parseTestName', `t-${t36(NOW)}-0a1b2c.courier.events`)).toEqual({ namespace: `t-${t36(NOW)}-0a1b2c`, createdAt: NOW });
    expect(call('parseTestName', `startup-${t36(NOW)}-0a1b2c-r1234abcd.intake.order-received.dead`)).toEqual({
      namespace: `startup-${t36(NOW)}-0a1b2c-r1234abcd`,
      createdAt: NOW,
      runId: '1234abcd',
    });
    expect(call('parseTestName', `bench-${t36(NOW)}-ffffff.webhooks.order-events`)).toMatchObject({ createdAt: NOW });
  });

  it('never picks names that are not test namespaces', () => {
    for (const name of ['courier.events', 'intake.order-received', 'prod-eu.courier.events', 'amq.topic', `t-${t36(NOW)}-0a1b2c`, 'team-zzzzzzzz-0a1b2c.q', `t-${t36(NOW)}-0A1B2C.q`]) {
      expect(call('parseTestName', name)).toBeNull();
    }
  });

  it('selects by age, by run, by namespace, or all', () => {
    const old = `t-${t36(NOW - 61 * 60_000)}-000001.q`;
    const recent = `t-${t36(NOW - 5 * 60_000)}-000002-rabcd1234.q`;
    const other = `t-${t36(NOW - 5 * 60_000)}-000003-rffff0000.q`;
    const names = [old, recent, other, 'courier.events'];
    expect(call('selectTestNames', names, { olderThanMs: 60 * 60_000, now: NOW })).toEqual([old]);
    expect(call('selectTestNames', names, { runId: 'abcd1234' })).toEqual([recent]);
    expect(call('selectTestNames', names, { all: true })).toEqual([old, recent, other]);
    expect(call('selectTestNames', [...names, `t-${t36(NOW - 5 * 60_000)}-000003-rffff0000.dead`], { namespace: `t-${t36(NOW - 5 * 60_000)}-000003-rffff0000` })).toEqual([
      other,
      `t-${t36(NOW - 5 * 60_000)}-000003-rffff0000.dead`,
    ]);
  });
});
