// Lint: typescript-eslint recommended rules plus Nx module boundaries with real tags:
// apps depend on libs only (never on another app); `domain` and `contracts` depend on nothing
// but themselves; only the one-machine composer (local-suite) may import apps.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import nx from '@nx/eslint-plugin';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.local/**', '**/tmp/**', '**/coverage/**', '**/*.js', '**/*.cjs', 'apps/**/*.mjs', 'libs/**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          banTransitiveDependencies: false,
          // libs/testing builds its harnesses on messaging and persistence, whose own tests use those
          // harnesses: a cycle through test files only, never through production code (their
          // project.json drop the edge with `implicitDependencies: ["!testing"]`, so builds stay ordered).
          // Likewise messaging's tests start tracing (observability), which reports messaging's metrics.
          ignoredCircularDependencies: [
            ['testing', 'messaging'],
            ['testing', 'persistence'],
            ['messaging', 'observability'],
          ],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib', 'type:testing'] },
            { sourceTag: 'type:composer', onlyDependOnLibsWithTags: ['type:app', 'type:lib', 'type:testing'] },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib', 'type:testing'] },
            { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:lib'] },
            // tools/: build, test runner, benchmarks, deployment checks; they may use libs, never apps.
            { sourceTag: 'type:tooling', onlyDependOnLibsWithTags: ['type:lib', 'type:testing'] },
            { sourceTag: 'scope:domain', onlyDependOnLibsWithTags: ['scope:domain'] },
            { sourceTag: 'scope:contracts', onlyDependOnLibsWithTags: ['scope:contracts'] },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-unsafe-function-type': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    // The one-machine composer is the only place that may import apps (through their index.ts).
    files: ['apps/local-suite/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: ['@courier/intake-api', '@courier/integrations-api', '@courier/status-dispatcher', '@courier/webhook-sender', '@courier/mock-receiver'],
          depConstraints: [{ sourceTag: 'type:composer', onlyDependOnLibsWithTags: ['type:app', 'type:lib', 'type:testing'] }],
        },
      ],
    },
  },
  {
    // The platform simulators are test and one-machine equipment (@courier/platforms/simulators):
    // production code reaches the platforms through the adapters only.
    files: ['apps/**/*.ts', 'libs/**/*.ts'],
    ignores: [
      'apps/local-suite/**',
      'apps/*/test/**',
      'libs/testing/**',
      'libs/platforms/src/simulators.ts',
      'libs/platforms/src/local-platforms.ts',
      'libs/platforms/src/**/*.simulator.ts',
      'libs/platforms/src/**/*.availability-routes.ts',
      'libs/platforms/src/**/*.catalog-routes.ts',
      'libs/platforms/src/common/simulator-server.ts',
      'libs/platforms/src/testing/**',
      '**/*.spec.ts',
      '**/*.integration-spec.ts',
      '**/*.medium-spec.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@courier/platforms/simulators', '@courier/platforms/simulators/**', '**/simulators', '**/*.simulator', '**/simulator-server', '**/local-platforms'],
              message: 'Simulators are for tests and the one-machine suite (apps/local-suite); production code uses the adapters of @courier/platforms.',
            },
          ],
        },
      ],
    },
  },
  {
    // status-dispatcher and webhook-sender reach their tables through their repositories only (one per table group, *.repository.ts).
    files: ['apps/status-dispatcher/src/**/*.ts', 'apps/webhook-sender/src/**/*.ts'],
    ignores: ['apps/*/src/**/*.repository.ts', 'apps/*/src/migrations/**', '**/*.spec.ts', '**/*.integration-spec.ts', '**/*.medium-spec.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^(query|createQueryRunner)$/]',
          message: 'SQL belongs in a repository (*.repository.ts) that returns camelCase types; call its methods instead.',
        },
      ],
    },
  },
  {
    // The repository's own scripts (build, tests runner, benchmarks, broker cleanup, this file): plain Node ES modules.
    files: ['**/*.mjs'],
    languageOptions: { globals: { ...globals.node } },
    rules: { 'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }] },
  },
  {
    files: ['**/*.spec.ts', '**/*.integration-spec.ts', '**/*.medium-spec.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
