import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

/**
 * The operator's CLI over the admin API (`npm run admin -- <command>`). Talks HTTP to {pos_url}
 * with X-Admin-Token and prints the JSON answers. Exit codes: 0 done, 1 refused or unreachable,
 * 2 usage error.
 */

export const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  create-restaurant --name <name> [--provider-restaurant-id <id>] [--status-url <url>] [--cancel-url <url>] [--signing-secret]
                                 create an account (active, with its THIRD_PARTY integration); prints its key pair once
  list-restaurants [--limit <n>] [--cursor <c>] [--status active|disabled] [--all]
  get-restaurant <restaurantId>
  disable-restaurant <restaurantId>
  enable-restaurant <restaurantId>
  rotate-keys <restaurantId>     new API key pair (printed once); the old pair stops working
  reencrypt-secrets              re-encrypt stored secrets under the first key of SECRETS_ENCRYPTION_KEYS
  lookup-platform-restaurant --platform <code> --provider-restaurant-id <id>
                                 who holds a delivery platform's restaurant (and who lost it, and its history)
  verify-platform-restaurant --platform <code> --provider-restaurant-id <id> --integration-id <id> [--note <text>]
                                 confirm that this integration, the holder, owns the restaurant
  transfer-platform-restaurant --platform <code> --provider-restaurant-id <id> --to-integration-id <id> [--note <text>]
                                 give the restaurant to that integration; the holder is deactivated and displaced
  list-withheld-orders [--platform <code>] [--limit <n>] [--dispatcher-url <url>]
                                 platform orders kept from integrations their platform has not verified (status-dispatcher)

Options:
  --url <url>      integrations API ({pos_url}); default $POS_URL, else http://localhost:3001
  --token <token>  admin token; default $ADMIN_TOKEN, else "adminToken" of $LOCAL_DATA_DIR/demo.json (.local/demo.json)
  --dispatcher-url <url>  status-dispatcher for list-withheld-orders; default $STATUS_DISPATCHER_URL, else --url (the one-machine {pos_url} routes it)
  --operator <who> who acts, recorded in the audit table (platform restaurant commands); default $ADMIN_OPERATOR, else $USER
  --help`;

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  fetch?: typeof fetch;
  cwd?: string;
}

class UsageError extends Error {}

interface Connection {
  url: string;
  token: string;
}

interface Answer {
  status: number;
  body: unknown;
}

function demoFile(env: NodeJS.ProcessEnv, cwd: string): Record<string, unknown> | undefined {
  const file = path.resolve(cwd, env.LOCAL_DATA_DIR || '.local', 'demo.json');
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function connection(options: { url?: string; token?: string }, env: NodeJS.ProcessEnv, cwd: string): Connection {
  const demo = demoFile(env, cwd);
  const token = options.token || env.ADMIN_TOKEN || (typeof demo?.adminToken === 'string' ? demo.adminToken : undefined);
  if (!token) throw new UsageError('No admin token: pass --token, set ADMIN_TOKEN, or start the suite so that .local/demo.json exists.');
  const url = (options.url || env.POS_URL || 'http://localhost:3001').replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+/.test(url)) throw new UsageError(`--url must be an http(s) URL, got ${url}`);
  return { url, token };
}

async function call(io: CliIo, target: Connection, method: string, pathname: string, body?: unknown): Promise<Answer> {
  const response = await (io.fetch ?? fetch)(`${target.url}${pathname}`, {
    method,
    headers: { 'X-Admin-Token': target.token, Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: shown as text
  }
  return { status: response.status, body: parsed };
}

function restaurantId(positionals: string[], command: string): string {
  const id = positionals[1];
  if (!id || positionals.length > 2) throw new UsageError(`${command} takes exactly one restaurant id`);
  return encodeURIComponent(id);
}

function platformRestaurant(values: { platform?: string; 'provider-restaurant-id'?: string }, positionals: string[], command: string): { platform: string; providerRestaurantId: string } {
  if (!values.platform || !values['provider-restaurant-id']) throw new UsageError(`${command} needs --platform and --provider-restaurant-id`);
  if (positionals.length > 1) throw new UsageError(`${command} takes no positional arguments`);
  return { platform: values.platform, providerRestaurantId: values['provider-restaurant-id'] };
}

/** Who acts: the audit table records it with every platform restaurant action. */
function operator(values: { operator?: string }, env: NodeJS.ProcessEnv): string {
  const who = values.operator || env.ADMIN_OPERATOR || env.USER;
  if (!who) throw new UsageError('No operator: pass --operator, or set ADMIN_OPERATOR.');
  return who;
}

export async function runAdminCli(argv: string[], env: NodeJS.ProcessEnv = process.env, io: CliIo = defaultIo()): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    io.stderr(`${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  const command = positionals[0];
  if (values.help || !command) {
    (command || values.help ? io.stdout : io.stderr)(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  try {
    const target = connection(values, env, io.cwd ?? process.cwd());
    let answer: Answer;
    switch (command) {
      case 'create-restaurant': {
        if (!values.name) throw new UsageError('create-restaurant needs --name');
        if (positionals.length > 1) throw new UsageError('create-restaurant takes no positional arguments');
        answer = await call(io, target, 'POST', '/admin/v1/restaurants', {
          name: values.name,
          ...(values['provider-restaurant-id'] ? { providerRestaurantId: values['provider-restaurant-id'] } : {}),
          ...(values['status-url'] ? { statusUrl: values['status-url'] } : {}),
          ...(values['cancel-url'] ? { cancelUrl: values['cancel-url'] } : {}),
          ...(values['signing-secret'] ? { generateSigningSecret: true } : {}),
        });
        break;
      }
      case 'list-restaurants':
        answer = await listRestaurants(io, target, values);
        break;
      case 'get-restaurant':
        answer = await call(io, target, 'GET', `/admin/v1/restaurants/${restaurantId(positionals, command)}`);
        break;
      case 'disable-restaurant':
        answer = await call(io, target, 'POST', `/admin/v1/restaurants/${restaurantId(positionals, command)}/disable`);
        break;
      case 'enable-restaurant':
        answer = await call(io, target, 'POST', `/admin/v1/restaurants/${restaurantId(positionals, command)}/enable`);
        break;
      case 'rotate-keys':
        answer = await call(io, target, 'POST', `/admin/v1/restaurants/${restaurantId(positionals, command)}/rotate-keys`);
        break;
      case 'reencrypt-secrets':
        answer = await call(io, target, 'POST', '/admin/v1/secrets/reencrypt');
        break;
      case 'lookup-platform-restaurant': {
        const query = new URLSearchParams({ ...platformRestaurant(values, positionals, command), operator: operator(values, env) });
        answer = await call(io, target, 'GET', `/admin/v1/platform-restaurants?${query}`);
        break;
      }
      case 'verify-platform-restaurant':
        if (!values['integration-id']) throw new UsageError(`${command} needs --integration-id`);
        answer = await call(io, target, 'POST', '/admin/v1/platform-restaurants/verify', {
          ...platformRestaurant(values, positionals, command),
          integrationId: values['integration-id'],
          operator: operator(values, env),
          ...(values.note ? { note: values.note } : {}),
        });
        break;
      case 'transfer-platform-restaurant':
        if (!values['to-integration-id']) throw new UsageError(`${command} needs --to-integration-id`);
        answer = await call(io, target, 'POST', '/admin/v1/platform-restaurants/transfer', {
          ...platformRestaurant(values, positionals, command),
          toIntegrationId: values['to-integration-id'],
          operator: operator(values, env),
          ...(values.note ? { note: values.note } : {}),
        });
        break;
      case 'list-withheld-orders': {
        if (positionals.length > 1) throw new UsageError(`${command} takes no positional arguments`);
        const dispatcherUrl = (values['dispatcher-url'] || env.STATUS_DISPATCHER_URL || target.url).replace(/\/+$/, '');
        if (!/^https?:\/\/[^/]+/.test(dispatcherUrl)) throw new UsageError(`--dispatcher-url must be an http(s) URL, got ${dispatcherUrl}`);
        const query = new URLSearchParams({ ...(values.platform ? { platform: values.platform } : {}), ...(values.limit ? { limit: values.limit } : {}) });
        answer = await call(io, { ...target, url: dispatcherUrl }, 'GET', `/admin/v1/withheld-orders${query.size > 0 ? `?${query}` : ''}`);
        break;
      }
      default:
        throw new UsageError(`Unknown command: ${command}`);
    }
    const printed = `${JSON.stringify(answer.body, null, 2)}\n`;
    if (answer.status >= 200 && answer.status < 300) {
      io.stdout(printed);
      return 0;
    }
    io.stderr(printed);
    return 1;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    io.stderr(`${JSON.stringify({ error: 'request failed', detail: (error as Error).message, cause: String((error as { cause?: unknown }).cause ?? '') }, null, 2)}\n`);
    return 1;
  }
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      url: { type: 'string' },
      token: { type: 'string' },
      name: { type: 'string' },
      'provider-restaurant-id': { type: 'string' },
      'status-url': { type: 'string' },
      'cancel-url': { type: 'string' },
      'signing-secret': { type: 'boolean' },
      limit: { type: 'string' },
      cursor: { type: 'string' },
      status: { type: 'string' },
      all: { type: 'boolean' },
      platform: { type: 'string' },
      'integration-id': { type: 'string' },
      'to-integration-id': { type: 'string' },
      operator: { type: 'string' },
      note: { type: 'string' },
      'dispatcher-url': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

async function listRestaurants(io: CliIo, target: Connection, values: { limit?: string; cursor?: string; status?: string; all?: boolean }): Promise<Answer> {
  const collected: unknown[] = [];
  let cursor = values.cursor;
  for (;;) {
    const query = new URLSearchParams();
    if (values.limit) query.set('limit', values.limit);
    if (cursor) query.set('cursor', cursor);
    if (values.status) query.set('status', values.status);
    const answer = await call(io, target, 'GET', `/admin/v1/restaurants${query.size ? `?${query}` : ''}`);
    if (!values.all || answer.status !== 200) return answer;
    const page = answer.body as { data: unknown[]; nextCursor: string | null };
    collected.push(...page.data);
    if (!page.nextCursor) return { status: 200, body: { data: collected, nextCursor: null } };
    cursor = page.nextCursor;
  }
}

function defaultIo(): CliIo {
  return { stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text) };
}

if (require.main === module) {
  void runAdminCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
