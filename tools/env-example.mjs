#!/usr/bin/env node
// Writes .env.example from the apps' config classes: every variable with its default (read from an
// instance of the class), its meaning (the property's doc comment, read with the TypeScript
// compiler API) and, for a variable without a default, the format of its value (FORMATS below).
// Usage: node tools/env-example.mjs            write .env.example
//        node tools/env-example.mjs --stdout   print it (tools/env-example.spec.ts compares)
// The classes are loaded from their TypeScript sources through SWC (the same options as the build),
// so no build is needed. A variable without a doc comment, or without a default and a format,
// stops the generator: the file cannot silently lose a meaning.
import { createRequire } from 'node:module';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';

const require = createRequire(import.meta.url);
const swc = require('@swc/core');
const ts = require('typescript');
const { swcOptions, workspaceRoot } = require('./swc-options.cjs');

// TypeScript sources compiled on require (aliases rewritten to relative paths, as in the build).
const options = swcOptions({ withPaths: true });
require.extensions['.ts'] = (module, filename) => {
  const { code } = swc.transformSync(readFileSync(filename, 'utf8'), { ...options, sourceMaps: false, filename, swcrc: false, configFile: false });
  module._compile(code, filename);
};
require('reflect-metadata');
const { plainToInstance } = require('class-transformer');
const { getMetadataStorage } = require('class-validator');

const source = (file) => path.join(workspaceRoot, file);

/** One section per platform folder with a config class of the given kind (libs/platforms/src/<platform>/<platform>.<kind>.config.ts). */
function platformSections(kind, title, usedBy) {
  const root = 'libs/platforms/src';
  return readdirSync(source(root), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${root}/${entry.name}/${entry.name}.${kind}.config.ts`)
    .filter((file) => existsSync(source(file)))
    .sort()
    .flatMap((file) => Object.keys(require(source(file))).map((className) => ({ file, className, title: `${title}: ${path.basename(path.dirname(file))}`, usedBy })));
}

/** One block of the file per config class; a class lists only the variables it declares itself. */
const SECTIONS = [
  { file: 'libs/config/src/base-config.ts', className: 'MigrationConfig', title: 'Every app but the receiver, and the migration commands' },
  { file: 'libs/config/src/base-config.ts', className: 'BaseConfig', title: 'Every app but the receiver' },
  { file: 'libs/config/src/base-config.ts', className: 'AuthThrottledConfig', title: 'Apps with authenticated routes' },
  { file: 'apps/intake-api/src/app/intake-api.config.ts', className: 'IntakeConfig', title: 'intake-api' },
  { file: 'apps/integrations-api/src/app/integrations-api.config.ts', className: 'IntegrationsConfig', title: 'integrations-api' },
  { file: 'apps/status-dispatcher/src/app/status-dispatcher.config.ts', className: 'DispatcherConfig', title: 'status-dispatcher' },
  { file: 'apps/webhook-sender/src/app/webhook-sender.config.ts', className: 'WebhookSenderConfig', title: 'webhook-sender' },
  // Validated by the apps that call a platform (status-dispatcher's sessions, integrations-api's integration check).
  { file: 'libs/platforms/src/common/platform-client.config.ts', className: 'PlatformHttpConfig', title: 'Platform clients', usedBy: ['integrations-api', 'status-dispatcher'] },
  // Each platform's own client settings (its folder's *.client.config.ts), validated by the same apps.
  ...platformSections('client', 'Platform client', ['integrations-api', 'status-dispatcher']),
  // Each platform's inbound settings (its folder's *.inbound.config.ts), validated by status-dispatcher.
  ...platformSections('inbound', 'Platform inbound', ['status-dispatcher']),
  { file: 'apps/mock-receiver/src/app/receiver.config.ts', className: 'ReceiverConfig', title: 'mock-receiver (reference receiver)', usedBy: ['mock-receiver'] },
];

/** The value format of every variable without a default: placeholders, never a usable secret. */
const FORMATS = {
  DATABASE_URL: 'postgres://user:password@postgres-host:5432/courier',
  RABBITMQ_URL: 'amqp://user:password@rabbitmq-host:5672',
  RABBITMQ_NAMESPACE: 'courier-prod',
  SERVICE_INSTANCE: 'pod-name',
  REDIS_URL: 'redis://redis-host:6379',
  GEOCODER_URL: 'https://nominatim.example.org',
  ADMIN_TOKEN: '<at least 16 random characters>',
  SECRETS_ENCRYPTION_KEYS: 'keyId:base64key,olderKeyId:base64key',
  INTERNAL_API_KEYS: '<key of at least 16 characters>,<next key during a rotation>',
  PLATFORM_A_WEBHOOK_API_KEY: '<the x-api-key PLATFORM_A sends, at least 16 characters>',
  PLATFORM_B_PLUGIN_SECRET: '<the plugin JWT secret, at least 16 characters>',
  PLATFORM_CALL_BUDGETS: 'PLATFORM_A:token=40/1300,PLATFORM_C:picked=5/1000',
  PLATFORM_A_APP_SECRET_KEY: '<the integrator app key from PLATFORM_A>',
  PLATFORM_D_SECRET_KEY: '<the integrator secret key from PLATFORM_D>',
  RECEIVER_DATA_FILE: '/var/lib/courier/receiver-state.json',
  SERVICE_INTERNAL_URL: 'http://status-dispatcher:3002',
  SERVICE_INTERNAL_API_KEY: '<one of INTERNAL_API_KEYS>',
  RECEIVER_ALLOWED_HOSTS: 'mock.courier.example,receiver-proxy:8080',
};

/** Variables read outside the config classes (the one-machine launcher, the admin CLI, the platform registry). */
function otherSections() {
  const settings = readFileSync(source('apps/local-suite/src/local-settings.ts'), 'utf8');
  const localPorts = new Map([...settings.matchAll(/port\(env, '([A-Z0-9_]+)', (\d+)/g)].map((match) => [match[1], match[2]]));
  // The simulators' ports follow the registry (every platform with a simulator, LOCAL_<code>_PORT).
  const { platformPorts } = require(source('apps/local-suite/src/local-settings.ts'));
  const simulatorPorts = Object.entries(platformPorts({})).map(([code, value]) => ({ name: `LOCAL_${code}_PORT`, value: String(value), meaning: `Port of the ${code} simulator on 127.0.0.1 (0: a free one, printed at start).` }));
  const { PLATFORM_DEFINITIONS } = require(source('libs/platforms/src/platforms.ts'));
  return [
    {
      title: 'One-machine mode (npm start, apps/local-suite); it also reads INTAKE_PORT, POS_PORT and the receiver\'s PORT',
      usedBy: ['local-suite'],
      variables: [
        { name: 'LISTEN_HOST', value: '127.0.0.1', meaning: 'Where the suite listens; 0.0.0.0: every interface (reachable from the network).' },
        ...[...localPorts].filter(([name]) => name.startsWith('LOCAL_')).map(([name, value]) => ({ name, value, meaning: name === 'LOCAL_PG_PORT' ? 'Port of the embedded PostgreSQL.' : `Port of ${name}.` })),
        ...simulatorPorts,
      ],
    },
    {
      title: 'Platform wire codes (libs/platforms PlatformRegistry.fromEnv)',
      usedBy: ['integrations-api', 'status-dispatcher'],
      variables: PLATFORM_DEFINITIONS.filter((definition) => definition.wireCodeVariable).map((definition) => ({
        name: definition.wireCodeVariable,
        value: definition.code,
        meaning: `The code ${definition.code} has on the wire (upper-case letters, digits and _).`,
      })),
    },
    {
      title: 'Tracing: OpenTelemetry\'s standard settings (libs/observability/src/tracing.ts, docs/tracing.md); off unless set',
      usedBy: ['intake-api', 'integrations-api', 'status-dispatcher', 'webhook-sender', 'mock-receiver', 'local-suite'],
      variables: require(source('libs/observability/src/tracing.ts')).TRACING_SETTINGS.map((setting) => ({ ...setting })),
    },
    {
      title: 'Admin CLI (npm run admin); it also reads ADMIN_TOKEN',
      usedBy: ['npm run admin'],
      variables: [
        { name: 'POS_URL', value: 'http://localhost:3001', meaning: 'Base URL of integrations-api the CLI calls.' },
        { name: 'ADMIN_OPERATOR', value: '', meaning: 'Who is named in the audit log; unset: $USER.' },
        { name: 'STATUS_DISPATCHER_URL', value: 'http://localhost:3002', meaning: 'Base URL of status-dispatcher for list-withheld-orders; unset: POS_URL (the one-machine gateway routes it).' },
      ],
    },
  ];
}

/** Doc comments of the properties of every class in a file: class name -> property -> text. */
function docComments(file) {
  const sourceFile = ts.createSourceFile(file, readFileSync(source(file), 'utf8'), ts.ScriptTarget.ES2022, true);
  const classes = new Map();
  const visit = (node) => {
    if (ts.isClassDeclaration(node) && node.name) {
      const properties = new Map();
      for (const member of node.members) {
        if (!ts.isPropertyDeclaration(member) || !ts.isIdentifier(member.name)) continue;
        const text = ts
          .getJSDocCommentsAndTags(member)
          .filter(ts.isJSDoc)
          .map((doc) => ts.getTextOfJSDocComment(doc.comment) ?? '')
          .join(' ');
        properties.set(member.name.text, text.replace(/\s+/g, ' ').trim());
      }
      classes.set(node.name.text, properties);
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return classes;
}

/** Property names class-validator knows for a class (inherited ones included), in declaration order. */
function validatedProperties(type) {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(type, '', true, false);
  const names = [...new Set(metadata.map((entry) => entry.propertyName))];
  return names.map((name) => ({ name, metadata: metadata.filter((entry) => entry.propertyName === name) }));
}

const UNITS = [['d', 86_400_000], ['h', 3_600_000], ['m', 60_000], ['s', 1_000]];
const asDuration = (ms) => {
  const unit = UNITS.find(([, size]) => ms % size === 0);
  return unit ? `${ms / unit[1]}${unit[0]}` : `${ms}ms`;
};

/** The variable's text for a default value: the first rendering that the class reads back as that value. */
function renderDefault(type, name, value) {
  const candidates = Array.isArray(value)
    ? [value.every(Number.isFinite) ? value.map(asDuration).join(',') : undefined, value.join(',')]
    : [typeof value === 'number' ? asDuration(value) : undefined, String(value)];
  for (const text of candidates.filter((candidate) => candidate !== undefined)) {
    const read = plainToInstance(type, { [name]: text }, { exposeDefaultValues: true })[name];
    if (isDeepStrictEqual(read, value)) return text;
  }
  throw new Error(`${name}: no text of the default ${JSON.stringify(value)} reads back as it`);
}

const wrap = (text, prefix = '# ', width = 100) => {
  const lines = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && prefix.length + line.length + 1 + word.length > width) {
      lines.push(prefix + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(prefix + line);
  return lines;
};

function classSection(section, appClasses) {
  const module = require(source(section.file));
  const type = module[section.className];
  if (!type) throw new Error(`${section.file} exports no ${section.className}`);
  const parent = Object.getPrototypeOf(type);
  const inherited = new Set(parent === Function.prototype ? [] : validatedProperties(parent).map((property) => property.name));
  const docs = docComments(section.file).get(section.className) ?? new Map();
  const defaults = new type();
  const usedBy = section.usedBy ?? appClasses.filter(([, appType]) => appType === type || appType.prototype instanceof type).map(([app]) => app);
  const problems = [];
  const variables = [];
  for (const { name, metadata } of validatedProperties(type).filter((property) => !inherited.has(property.name))) {
    const meaning = docs.get(name);
    if (!meaning) problems.push(`${section.className}.${name} has no doc comment (its meaning in .env.example)`);
    const optional = metadata.some((entry) => entry.type === 'conditionalValidation');
    const allowed = metadata.find((entry) => entry.name === 'isIn')?.constraints?.[0];
    const extra = allowed ? ` One of: ${allowed.join(', ')}.` : '';
    const value = defaults[name];
    if (value !== undefined) {
      variables.push({ name, value: renderDefault(type, name, value), meaning: `${meaning ?? ''}${extra}` });
    } else if (FORMATS[name] === undefined) {
      problems.push(`${section.className}.${name} has no default: give its format in FORMATS (tools/env-example.mjs)`);
    } else {
      variables.push({ name, format: FORMATS[name], required: !optional, meaning: `${meaning ?? ''}${extra}` });
    }
  }
  if (problems.length) throw new Error(problems.join('\n'));
  return { title: `${section.title} (${section.className}, ${section.file})`, usedBy, variables };
}

export function renderEnvExample() {
  const appClasses = SECTIONS.filter((section) => section.file.startsWith('apps/')).map((section) => [
    section.file.split('/')[1],
    require(source(section.file))[section.className],
  ]);
  const sections = [...SECTIONS.map((section) => classSection(section, appClasses)), ...otherSections()];
  const lines = [
    '# Environment variables of the courier suite: every variable of every app, its default and meaning.',
    '# Generated by `npm run env-example` (tools/env-example.mjs) from the apps\' config classes; do not',
    '# edit by hand: tools/env-example.spec.ts fails when this file and the classes disagree.',
    '#',
    '# `#NAME=value`    optional; the value shown is the default the app uses when NAME is unset.',
    '# `#NAME=<format>` optional without a default; the value shows the format only.',
    '# `NAME=<format>`  required; the value shows the format only. Never commit real secrets: keep them',
    '#                  in a secret store (k8s Secret, docker/.env outside git).',
  ];
  const listed = new Set();
  for (const section of sections) {
    lines.push('', `# ==== ${section.title} ====`, ...wrap(`Used by: ${section.usedBy.join(', ')}.`));
    for (const variable of section.variables) {
      // A variable several apps read is set once: its later lines are comments.
      const again = listed.has(variable.name);
      listed.add(variable.name);
      lines.push(...wrap(`${variable.meaning}${variable.required ? (again ? ' Required (set above).' : ' Required.') : ''}`.trim()));
      if ('format' in variable) lines.push(`${variable.required && !again ? '' : '#'}${variable.name}=${variable.format}`);
      else lines.push(`#${variable.name}=${variable.value}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

const text = renderEnvExample();
if (process.argv.includes('--stdout')) process.stdout.write(text);
else {
  writeFileSync(path.join(workspaceRoot, '.env.example'), text);
  console.log('.env.example written');
}
