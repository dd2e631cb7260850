/** The small readers the deployment tests rely on: Dockerfile, .dockerignore, compose, Ingress, selectors. */
import { effectiveImage, healthcheckCommand, isIgnored, parseAssignments, parseCopy, parseDockerfile, readInstructions } from './dockerfile';
import { interpolate, readCompose, serviceEnvironment, servicePorts } from './compose';
import { K8sObject, routeRequest, selects } from './manifests';

describe('Dockerfile reader', () => {
  const source = [
    '# syntax=docker/dockerfile:1',
    'ARG BASE=node:20@sha256:abc',
    'FROM ${BASE} AS base',
    'ENV A=1 \\',
    '    B="two words"',
    'USER 1000:1000',
    'ENTRYPOINT ["/usr/bin/tini", "--"]',
    'HEALTHCHECK --interval=5s \\',
    '  CMD ["node", "h.js"]',
    '',
    'FROM base AS app',
    '# a comment between instructions',
    'ENV LEGACY value with spaces',
    'COPY --from=build --chown=1:1 /src/dist ./dist',
    'EXPOSE 3000',
    'CMD node main.js',
  ].join('\n');
  const file = parseDockerfile(source);

  it('joins continuation lines, skips comments and substitutes global ARGs in FROM', () => {
    expect(readInstructions(source).map((i) => i.keyword)).toEqual(['ARG', 'FROM', 'ENV', 'USER', 'ENTRYPOINT', 'HEALTHCHECK', 'FROM', 'ENV', 'COPY', 'EXPOSE', 'CMD']);
    expect(file.stages.map((stage) => [stage.name, stage.from])).toEqual([
      ['base', 'node:20@sha256:abc'],
      ['app', 'base'],
    ]);
  });

  it('follows the FROM chain for the effective user, entry point, environment and health check', () => {
    const image = effectiveImage(file, 'app');
    expect(image.user).toBe('1000:1000');
    expect(image.entrypoint?.exec).toEqual(['/usr/bin/tini', '--']);
    expect(image.env).toEqual({ A: '1', B: 'two words', LEGACY: 'value with spaces' });
    expect(image.exposed).toEqual(['3000']);
    expect(image.cmd?.exec).toBeUndefined();
    expect(healthcheckCommand(image.healthcheck!)).toEqual(['node', 'h.js']);
  });

  it('reads COPY options, sources and destination', () => {
    const copy = effectiveImage(file, 'app').instructions.find((i) => i.keyword === 'COPY')!;
    expect(parseCopy(copy)).toEqual({ options: { from: 'build', chown: '1:1' }, sources: ['/src/dist'], destination: './dist' });
  });

  it('reads ENV/ARG assignments in both forms', () => {
    expect(parseAssignments('NAME')).toEqual({ NAME: '' });
    expect(parseAssignments("X=1 Y='a b' Z=")).toEqual({ X: '1', Y: 'a b', Z: '' });
  });

  it('rejects a file that ends inside a continuation', () => {
    expect(() => readInstructions('FROM x\nRUN a \\')).toThrow(/continued/);
  });
});

describe('.dockerignore matching', () => {
  const patterns = ['*', '!apps', '!docker/healthcheck.js', '**/node_modules', '**/*.spec.ts'];

  it('applies the last matching pattern, to a path and to its parents', () => {
    expect(isIgnored('package.json', patterns)).toBe(true);
    expect(isIgnored('apps/x/src/main.ts', patterns)).toBe(false);
    expect(isIgnored('apps/x/src/main.spec.ts', patterns)).toBe(true);
    expect(isIgnored('apps/x/node_modules/y/index.js', patterns)).toBe(true);
    expect(isIgnored('docker/healthcheck.js', patterns)).toBe(false);
    expect(isIgnored('docker/Dockerfile', patterns)).toBe(true);
  });
});

describe('compose reader', () => {
  it('interpolates like compose, defaults included', () => {
    expect(interpolate('${A:-x} ${B-y} $C $$D ${E}', { A: '', C: 'c', E: 'e' })).toBe('x y c $D e');
    expect(() => interpolate('${NEEDED:?set it}')).toThrow(/NEEDED is required/);
  });

  it('resolves merge keys and both environment syntaxes, and reads port mappings', () => {
    const compose = readCompose(
      ['x-base: &base', '  environment: {A: "1"}', 'services:', '  one:', '    <<: *base', '    ports: ["127.0.0.1:80:8080", "90"]', '  two:', '    environment: ["B=2", "C"]'].join('\n'),
    );
    expect(serviceEnvironment(compose.services.one)).toEqual({ A: '1' });
    expect(serviceEnvironment(compose.services.two)).toEqual({ B: '2', C: '' });
    expect(servicePorts(compose.services.one)).toEqual([
      { container: 8080, host: 80, hostIp: '127.0.0.1' },
      { container: 90, host: undefined, hostIp: undefined },
    ]);
  });
});

describe('Ingress routing', () => {
  const backend = (name: string) => ({ service: { name, port: { name: 'http' } } });
  const ingress = {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name: 'i' },
    spec: {
      rules: [
        {
          host: 'h',
          http: {
            paths: [
              { path: '/a', pathType: 'Prefix', backend: backend('short') },
              { path: '/a/b', pathType: 'Prefix', backend: backend('long') },
              { path: '/a/b', pathType: 'Exact', backend: backend('exact') },
            ],
          },
        },
      ],
    },
  } as K8sObject;

  it('matches whole path elements, prefers the longest match and Exact over Prefix', () => {
    expect(routeRequest([ingress], 'h', '/a')?.service).toBe('short');
    expect(routeRequest([ingress], 'h', '/a/')?.service).toBe('short');
    expect(routeRequest([ingress], 'h', '/a/b')?.service).toBe('exact');
    expect(routeRequest([ingress], 'h', '/a/b/c')?.service).toBe('long');
    expect(routeRequest([ingress], 'h', '/ab')).toBeUndefined();
    expect(routeRequest([ingress], 'other', '/a')).toBeUndefined();
  });
});

describe('label selectors', () => {
  it('implement matchLabels and every matchExpressions operator', () => {
    const labels = { app: 'x', tier: 'web' };
    expect(selects({}, labels)).toBe(true);
    expect(selects({ matchLabels: { app: 'x' } }, labels)).toBe(true);
    expect(selects({ matchLabels: { app: 'y' } }, labels)).toBe(false);
    expect(selects({ matchExpressions: [{ key: 'app', operator: 'In', values: ['x', 'z'] }] }, labels)).toBe(true);
    expect(selects({ matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['x'] }] }, labels)).toBe(false);
    expect(selects({ matchExpressions: [{ key: 'zone', operator: 'Exists' }] }, labels)).toBe(false);
    expect(selects({ matchExpressions: [{ key: 'zone', operator: 'DoesNotExist' }] }, labels)).toBe(true);
  });
});
