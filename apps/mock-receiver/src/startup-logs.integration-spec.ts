import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { freePort, waitFor } from '@courier/testing';
import { makeDataDir } from './__fixtures__/receiver';

const entry = path.resolve(__dirname, '..', '..', '..', 'dist', 'apps', 'mock-receiver', 'src', 'main.js');

jest.setTimeout(30_000);

describe('mock-receiver started as `node dist/apps/mock-receiver/src/main.js`', () => {
  it('logs no error (level 50 or above) on a normal start, up to answering /health and stopping on SIGTERM', async () => {
    if (!existsSync(entry)) throw new Error(`${entry} is missing: run "node tools/build.mjs" first (npm test does)`);
    const data = await makeDataDir();
    const port = await freePort();
    let output = '';
    const child = spawn(process.execPath, [entry], {
      env: { PATH: process.env.PATH, PORT: String(port), LOG_LEVEL: 'info', LOCAL_DATA_DIR: data.dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
    try {
      await waitFor('the receiver answers /health', async () => {
        const response = await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined);
        return response?.status === 200 ? true : undefined;
      });
    } finally {
      child.kill('SIGTERM');
      await exited;
      await data.remove();
    }
    const lines = output
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => {
        try {
          return JSON.parse(line) as { level?: number; msg?: string };
        } catch {
          return { level: Infinity, msg: `not a JSON log line: ${line}` };
        }
      });
    expect(lines.map((line) => line.msg)).toContain('Nest application successfully started');
    expect(lines.filter((line) => (line.level ?? 0) >= 50)).toEqual([]);
  });
});
