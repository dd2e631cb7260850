// One SWC configuration for the build and for jest, so tests run the code the way it ships.
// SWC emits decorator metadata (Nest DI, class-validator, TypeORM need it); tsc only typechecks.
const path = require('node:path');
const tsconfig = require('../tsconfig.base.json');

const workspaceRoot = path.resolve(__dirname, '..');

function swcOptions({ withPaths }) {
  const jsc = {
    target: 'es2022',
    parser: { syntax: 'typescript', decorators: true, dynamicImport: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    keepClassNames: true,
  };
  if (withPaths) {
    jsc.baseUrl = workspaceRoot;
    jsc.paths = tsconfig.compilerOptions.paths;
  }
  return { jsc, module: { type: 'commonjs', strictMode: true, ignoreDynamic: true }, sourceMaps: true };
}

module.exports = { swcOptions, workspaceRoot, tsPaths: tsconfig.compilerOptions.paths };
