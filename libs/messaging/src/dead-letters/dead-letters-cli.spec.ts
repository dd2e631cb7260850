import { runDeadLettersCli, USAGE } from './dead-letters-cli';

async function run(argv: string[], env: NodeJS.ProcessEnv = { RABBITMQ_URL: 'amqp://127.0.0.1:1' }) {
  let stdout = '';
  let stderr = '';
  const code = await runDeadLettersCli(argv, env, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

describe('dead-letters CLI arguments', () => {
  it('prints its usage with --help', async () => {
    expect(await run(['--help'], {})).toEqual({ code: 0, stdout: `${USAGE}\n`, stderr: '' });
  });

  it.each([
    [[], /No command given/],
    [['purge', 'webhook-sender.order-events'], /Unknown command: purge/],
    [['list'], /list takes 1 argument/],
    [['list', 'webhook-sender.order-events.dead'], /Unknown queue/],
    [['list', 'webhook-sender.order-events', '--limit', '0'], /--limit must be a positive integer/],
    [['show', 'webhook-sender.order-events'], /show takes 2 argument/],
    [['replay', 'webhook-sender.order-events'], /either --id <messageId> \(repeatable\) or --all/],
    [['replay', 'webhook-sender.order-events', '--all', '--id', 'm1'], /either --id/],
    [['discard', 'webhook-sender.order-events', '--all'], /add --yes/],
    [['list', 'webhook-sender.order-events', '--all'], /belong to replay and discard/],
    [['list', 'webhook-sender.order-events', '--bogus'], /Unknown option/],
  ])('refuses %j with exit code 2', async (argv, message) => {
    const result = await run(argv as string[]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message as RegExp);
    expect(result.stdout).toBe('');
  });

  it('needs a broker URL', async () => {
    const result = await run(['list', 'webhook-sender.order-events'], {});
    expect(result).toMatchObject({ code: 2, stderr: expect.stringMatching(/Set RABBITMQ_URL/) });
  });

  it('answers 1 with the reason, and no credentials, when the broker cannot be reached', async () => {
    const result = await run(['list', 'intake-api.order-events'], { RABBITMQ_URL: 'amqp://operator:s3cret-pass@127.0.0.1:1' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^dead-letters: .*ECONNREFUSED/);
    expect(result.stderr).not.toContain('s3cret-pass');
  });
});
