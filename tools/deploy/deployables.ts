/**
 * What the deployment tests know about the apps, read from the code so that it stays true as the
 * apps grow: which apps are deployed (project.json tag `type:app`), their config classes (the
 * `src/app/*.config.ts` file), the variables each class reads, which of them are required, the
 * variable that holds the port, and whether the app has migrations.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync } from 'class-validator';
import { configClassesOf, ConfigurationError, productionSettings, validateConfig } from '@courier/config';

export const WORKSPACE = path.resolve(__dirname, '..', '..');

export type ConfigClass = new () => object;

export interface Deployable {
  name: string;
  /** apps/<name>/src/main.ts exists (an app being written may not have one yet). */
  hasEntryPoint: boolean;
  /** apps/<name>/src/migrations exists: the app owns a schema and gets a migration Job. */
  hasMigrations: boolean;
  /** undefined while the app has no config file yet. */
  config?: ConfigClass;
}

/** Read by Node itself, not by a config class. */
export const RUNTIME_VARIABLES: readonly string[] = ['NODE_ENV', 'NODE_OPTIONS'];

export function workspacePath(...segments: string[]): string {
  return path.join(WORKSPACE, ...segments);
}

function loadConfigClass(app: string): ConfigClass | undefined {
  const dir = workspacePath('apps', app, 'src', 'app');
  if (!existsSync(dir)) return undefined;
  const files = readdirSync(dir).filter((file) => file.endsWith('.config.ts'));
  if (files.length === 0) return undefined;
  if (files.length > 1) throw new Error(`${app}: more than one src/app/*.config.ts (${files.join(', ')})`);
  // Loaded at run time because the list of apps is discovered.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const exported = require(path.join(dir, files[0])) as Record<string, unknown>;
  const classes = Object.entries(exported).filter(
    ([name, value]) => typeof value === 'function' && /Config$/.test(name) && configVariablesOf(value as ConfigClass).length > 0,
  );
  if (classes.length !== 1) {
    throw new Error(`${app}: expected one exported *Config class in ${files[0]}, found ${classes.map(([name]) => name).join(', ') || 'none'}`);
  }
  return classes[0][1] as ConfigClass;
}

function configVariablesOf(config: ConfigClass): string[] {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(config, '', true, false);
  return [...new Set(metadata.map((entry) => entry.propertyName))].sort();
}

export function deployables(): Deployable[] {
  const appsDir = workspacePath('apps');
  return readdirSync(appsDir)
    .filter((name) => {
      const projectFile = path.join(appsDir, name, 'project.json');
      if (!existsSync(projectFile)) return false;
      const project = JSON.parse(readFileSync(projectFile, 'utf8')) as { tags?: string[] };
      return (project.tags ?? []).includes('type:app');
    })
    .sort()
    .map((name) => ({
      name,
      hasEntryPoint: existsSync(path.join(appsDir, name, 'src', 'main.ts')),
      hasMigrations: existsSync(path.join(appsDir, name, 'src', 'migrations')),
      config: loadConfigClass(name),
    }));
}

/** Every variable the config class validates (inherited ones included). */
export function configVariables(config: ConfigClass): string[] {
  return configVariablesOf(config);
}

/** The variables without which validation fails: no default value and not @IsOptional. */
export function requiredVariables(config: ConfigClass): string[] {
  const errors = configClassesOf(config).flatMap((cls) => validateSync(plainToInstance(cls as ConfigClass, {}, { exposeDefaultValues: true }), { whitelist: false, forbidUnknownValues: false }));
  return [...new Set(errors.map((error) => error.property))].sort();
}

/** What a production deployment must set besides the required variables (@RequiredInProduction, libs/config). */
export function productionVariables(config: ConfigClass): string[] {
  return productionSettings(config);
}

/** The config class's own defaults. */
export function configDefaults(config: ConfigClass): Record<string, unknown> {
  return { ...(plainToInstance(config, {}, { exposeDefaultValues: true }) as Record<string, unknown>) };
}

/** The one variable named PORT or *_PORT, and its default. */
export function portVariable(config: ConfigClass): { name: string; defaultPort: number } {
  const candidates = configVariables(config).filter((name) => /(^|_)PORT$/.test(name));
  if (candidates.length !== 1) throw new Error(`${config.name}: expected one PORT/*_PORT variable, found ${candidates.join(', ') || 'none'}`);
  const defaultPort = Number(configDefaults(config)[candidates[0]]);
  return { name: candidates[0], defaultPort };
}

/** The problems validateConfig reports for this environment (empty: the app would start). */
export function configProblems(config: ConfigClass, env: Record<string, string | undefined>): string[] {
  return configClassesOf(config).flatMap((cls) => {
    try {
      validateConfig(cls as ConfigClass, env);
      return [];
    } catch (error) {
      if (error instanceof ConfigurationError) return error.problems;
      throw error;
    }
  });
}

/** Variables an environment may set for this app: the ones it reads, planned ones, Node's own. */
export function acceptedVariables(app: string, config: ConfigClass): Set<string> {
  return new Set([...configClassesOf(config).flatMap((cls) => configVariables(cls as ConfigClass)), ...RUNTIME_VARIABLES]);
}

/** Source file that tools/build.mjs compiles into `dist/<x>.js`. */
export function sourceOfBuildOutput(distPath: string): string {
  const match = /^(?:\.\/)?dist\/((?:apps|libs)\/[^/]+\/src\/.+)\.js$/.exec(distPath);
  if (!match) throw new Error(`${distPath} is not under dist/apps/<app>/src or dist/libs/<lib>/src`);
  return `${match[1]}.ts`;
}
