/**
 * The repository's own scripts do what the README and docs promise: `npm run test:unit -- <path>`
 * runs that path, Nx sees the imports between projects (so `nx affected` finds a library's
 * dependents), and `npm run format` formats what it is given.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

describe('repository scripts', () => {
  it('npm run test:unit -- <path> runs only the tests under that path', () => {
    const listed = execFileSync(npm, ['run', '--silent', 'test:unit', '--', 'libs/domain', '--listTests'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.endsWith('.spec.ts'));
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.filter((file) => !file.includes(`${path.sep}libs${path.sep}domain${path.sep}`))).toEqual([]);
  });

  it('the Nx project graph has the edges the imports make', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'nx-graph-'));
    try {
      const file = path.join(dir, 'graph.json');
      execFileSync(process.execPath, [path.join(root, 'node_modules/nx/bin/nx.js'), 'graph', `--file=${file}`], {
        cwd: root,
        env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' },
        stdio: 'ignore',
      });
      const { graph } = JSON.parse(readFileSync(file, 'utf8')) as { graph: { dependencies: Record<string, Array<{ target: string }>> } };
      const targets = (project: string) => graph.dependencies[project].map((edge) => edge.target);
      expect(targets('intake-api')).toEqual(expect.arrayContaining(['contracts', 'domain', 'messaging', 'persistence']));
      expect(targets('status-dispatcher')).toEqual(expect.arrayContaining(['platforms', 'contracts']));
      expect(targets('domain')).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('npm run format formats the files it is given, with the repository\'s Prettier settings', () => {
    const dir = mkdtempSync(path.join(root, 'tmp-format-'));
    try {
      const file = path.join(dir, 'sample.ts');
      writeFileSync(file, 'const a = {b:"c"}\n');
      const relative = path.relative(root, file);
      expect(spawnSync(process.execPath, ['tools/format.mjs', '--check', relative], { cwd: root }).status).not.toBe(0);
      expect(spawnSync(process.execPath, ['tools/format.mjs', relative], { cwd: root }).status).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe("const a = { b: 'c' };\n");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
