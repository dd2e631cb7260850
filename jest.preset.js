// Shared jest settings: SWC transform (same options as the build) and the workspace path aliases.
const path = require('node:path');
const { swcOptions, tsPaths } = require('./tools/swc-options.cjs');

const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(tsPaths)) {
  moduleNameMapper[`^${alias.replace('/', '\\/')}$`] = path.join(__dirname, target);
}

module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest', { ...swcOptions({ withPaths: false }), swcrc: false }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper,
  setupFiles: [path.join(__dirname, 'libs/testing/src/setup-reflect.js')],
};
