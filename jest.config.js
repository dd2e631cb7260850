// Root jest configuration: "unit" runs every *.spec.ts (no servers needed), "medium" every
// *.medium-spec.ts (a service with its real repositories on PostgreSQL, no app, broker or simulator:
// libs/testing medium.ts), "integration" every *.integration-spec.ts against real PostgreSQL and
// RabbitMQ through the apps (see tools/run-tests.mjs).
const preset = require('./jest.preset.js');

module.exports = {
  projects: [
    {
      ...preset,
      displayName: 'unit',
      rootDir: __dirname,
      roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools'],
      testMatch: ['**/*.spec.ts'],
    },
    {
      ...preset,
      displayName: 'medium',
      rootDir: __dirname,
      roots: ['<rootDir>/apps', '<rootDir>/libs'],
      testMatch: ['**/*.medium-spec.ts'],
      setupFilesAfterEnv: ['<rootDir>/libs/testing/src/integration-timeout.js'],
    },
    {
      ...preset,
      displayName: 'integration',
      rootDir: __dirname,
      roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools'],
      testMatch: ['**/*.integration-spec.ts'],
      // testTimeout is not a per-project option in jest; the setup file sets it.
      setupFilesAfterEnv: ['<rootDir>/libs/testing/src/integration-timeout.js'],
    },
  ],
};
