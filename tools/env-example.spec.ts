/**
 * .env.example is what tools/env-example.mjs makes of the config classes today, and names every
 * variable the apps read outside those classes too (the launcher, the CLI, the platform registry).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..');
const committed = readFileSync(path.join(root, '.env.example'), 'utf8');

/** Read by tests and by the OS only, not by a deployed app. */
const NOT_CONFIGURATION = new Set(['BROKER_TESTS', 'TEST_LOG_LEVEL', 'TEST_RABBITMQ_URL', 'TEST_RUN_ID', 'USER', 'NODE_ENV']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sources(full);
    return /\.ts$/.test(entry.name) && !/\.(spec|integration-spec)\.ts$/.test(entry.name) ? [full] : [];
  });
}

/** Variable names the code reads from an environment object, outside the config classes. */
function variablesReadInCode(): Set<string> {
  const names = new Set<string>();
  const patterns = [/\benv\.([A-Z][A-Z0-9_]+)/g, /\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]/g, /port\(env, '([A-Z][A-Z0-9_]+)'/g, /wireCodeVariable: '([A-Z][A-Z0-9_]+)'/g];
  for (const file of [...sources(path.join(root, 'apps')), ...sources(path.join(root, 'libs'))]) {
    const text = readFileSync(file, 'utf8');
    for (const pattern of patterns) for (const match of text.matchAll(pattern)) names.add(match[1]);
  }
  for (const name of NOT_CONFIGURATION) names.delete(name);
  return names;
}

const listed = new Set([...committed.matchAll(/^#?([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1]));

describe('.env.example', () => {
  it('is what `npm run env-example` generates from the config classes', () => {
    const generated = execFileSync(process.execPath, [path.join(root, 'tools/env-example.mjs'), '--stdout'], { cwd: root, encoding: 'utf8' });
    // On failure: run `npm run env-example` and commit .env.example.
    expect(committed).toBe(generated);
  });

  it('lists every variable the apps read outside their config classes', () => {
    const missing = [...variablesReadInCode()].filter((name) => !listed.has(name));
    expect(missing).toEqual([]);
  });

  it('shows formats, never a usable secret', () => {
    const value = (name: string) => new RegExp(`^#?${name}=(.*)$`, 'm').exec(committed)?.[1];
    expect(value('SECRETS_ENCRYPTION_KEYS')).toBe('keyId:base64key,olderKeyId:base64key');
    expect(value('ADMIN_TOKEN')).toMatch(/^<.*>$/);
    expect(value('INTERNAL_API_KEYS')).toMatch(/^<.*>,<.*>$/);
    expect(value('DATABASE_URL')).toContain('user:password@');
  });

  it('has a meaning above every variable', () => {
    expect(listed.size).toBeGreaterThan(90);
    const lines = committed.split('\n');
    const assignment = /^#?[A-Z][A-Z0-9_]+=/;
    const unexplained = lines.filter((line, index) => assignment.test(line) && !/^# \S/.test(lines[index - 1]));
    expect(unexplained).toEqual([]);
    expect(committed).toMatch(/^#LOG_LEVEL=info$/m);
    expect(committed).toMatch(/^#WEBHOOK_RETRY_SCHEDULE=1m,5m,15m,1h,4h,1d$/m);
  });
});
