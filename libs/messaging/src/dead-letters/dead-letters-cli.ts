import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { Queues } from '@courier/contracts';
import { DeadLetter, DeadLetterQueue } from './dead-letter-queue';

/**
 * The operator's CLI for dead letters (`npm run dead-letters -- <command>`, or in a pod:
 * `node dist/libs/messaging/src/dead-letters/dead-letters-cli.js <command>`, which finds RABBITMQ_URL
 * and RABBITMQ_NAMESPACE in the app's environment). Prints JSON. Exit codes: 0 done, 1 failed or
 * partly done (see the output), 2 usage error.
 */

const QUEUE_NAMES = Object.values(Queues).map((queue) => queue.name);

export const USAGE = `Usage: npm run dead-letters -- <command> [<queue>] [options]

Commands:
  queues                             every consumer queue of the suite and how many dead letters it holds
  list <queue> [--limit <n>]         the dead letters of <queue> (default 20), left where they are
  show <queue> <messageId>           one dead letter in full: headers, payload, why it was dead-lettered
  replay <queue> (--id <messageId> ... | --all) [--limit <n>]
                                     republish to the events exchange with the original routing key and
                                     message id (consumers are idempotent), then remove from <queue>.dead
  discard <queue> (--id <messageId> ... | --all --yes) [--limit <n>]
                                     remove dead letters for good (after the cause is understood)

<queue>: a consumer queue (${QUEUE_NAMES.join(', ')});
its dead letters are in <queue>.dead. --limit bounds how many messages one command looks at (default 1000 for
replay and discard).

Connection: RABBITMQ_URL and RABBITMQ_NAMESPACE as the apps use them, or --url <amqp-url> --namespace <ns>.`;

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

class UsageError extends Error {}

const print = (io: CliIo, value: unknown) => io.stdout(`${JSON.stringify(value, null, 2)}\n`);

function summary(letter: DeadLetter) {
  const { headers: _headers, payload: _payload, ...rest } = letter;
  return rest;
}

export async function runDeadLettersCli(argv: string[], env: NodeJS.ProcessEnv = process.env, io: CliIo = defaultIo()): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv, env);
  } catch (error) {
    io.stderr(`${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (parsed.help) {
    io.stdout(`${USAGE}\n`);
    return 0;
  }
  const { command, queue, values, connection } = parsed;
  try {
    if (command === 'queues') return await listQueues(io, connection);
    const dead = await DeadLetterQueue.open({ ...connection, queue: queue! });
    try {
      const count = await dead.count();
      switch (command) {
        case 'list': {
          const messages = await dead.list(values.limit ?? 20);
          print(io, { queue: dead.queue, deadLetterQueue: dead.deadLetterQueue, count, messages: messages.map(summary) });
          return 0;
        }
        case 'show': {
          const letter = (await dead.list(values.limit ?? 1_000)).find((candidate) => candidate.messageId === parsed.messageId);
          if (!letter) {
            print(io, { queue: dead.queue, deadLetterQueue: dead.deadLetterQueue, count, notFound: parsed.messageId });
            return 1;
          }
          print(io, letter);
          return 0;
        }
        default: {
          const report = await dead.settle({ ids: values.all ? 'all' : values.id!, limit: values.limit ?? 1_000, discard: command === 'discard' });
          print(io, { queue: dead.queue, deadLetterQueue: dead.deadLetterQueue, countBefore: count, ...report });
          return report.notFound.length > 0 || report.skipped.length > 0 ? 1 : 0;
        }
      }
    } finally {
      await dead.close();
    }
  } catch (error) {
    io.stderr(`dead-letters: ${(error as Error).message}\n`);
    return 1;
  }
}

async function listQueues(io: CliIo, connection: { url: string; namespace?: string }): Promise<number> {
  const rows: Array<{ queue: string; deadLetters: number | null; error?: string }> = [];
  for (const queue of QUEUE_NAMES) {
    const dead = await DeadLetterQueue.open({ ...connection, queue });
    try {
      rows.push({ queue, deadLetters: await dead.count() });
    } catch (error) {
      rows.push({ queue, deadLetters: null, error: (error as Error).message });
    } finally {
      await dead.close();
    }
  }
  print(io, rows);
  return rows.some((row) => row.error) ? 1 : 0;
}

function parse(argv: string[], env: NodeJS.ProcessEnv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        limit: { type: 'string' },
        id: { type: 'string', multiple: true },
        all: { type: 'boolean' },
        yes: { type: 'boolean' },
        url: { type: 'string' },
        namespace: { type: 'string' },
        help: { type: 'boolean' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const [command, queue, messageId, ...extra] = positionals;
  if (values.help) return { help: true as const, command: '', values: {}, connection: { url: '' } };
  const arity: Record<string, number> = { queues: 0, list: 1, show: 2, replay: 1, discard: 1 };
  if (!command || !(command in arity)) throw new UsageError(command ? `Unknown command: ${command}` : 'No command given.');
  if (positionals.length - 1 !== arity[command] || extra.length > 0) throw new UsageError(`${command} takes ${arity[command]} argument(s).`);
  if (queue !== undefined && !QUEUE_NAMES.includes(queue)) throw new UsageError(`Unknown queue: ${queue} (without the namespace and without .dead).`);
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) throw new UsageError('--limit must be a positive integer.');
  if (command === 'replay' || command === 'discard') {
    if (Boolean(values.all) === Boolean(values.id?.length)) throw new UsageError(`${command} needs either --id <messageId> (repeatable) or --all.`);
    if (command === 'discard' && values.all && !values.yes) throw new UsageError('discard --all removes every dead letter for good: add --yes.');
  } else if (values.id || values.all || values.yes) {
    throw new UsageError(`--id, --all and --yes belong to replay and discard.`);
  }
  const url = values.url || env.RABBITMQ_URL;
  if (!url || !/^amqps?:\/\/.+/.test(url)) throw new UsageError('Set RABBITMQ_URL (amqp:// or amqps://) or pass --url.');
  const namespace = values.namespace ?? (env.RABBITMQ_NAMESPACE || undefined);
  return { help: false as const, command, queue, messageId, values: { limit, id: values.id, all: values.all }, connection: { url, namespace } };
}

function defaultIo(): CliIo {
  return { stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text) };
}

if (require.main === module) {
  void runDeadLettersCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
