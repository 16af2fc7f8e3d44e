// Shared Jest settings: SWC transpiles TypeScript with decorator metadata (NestJS DI needs it);
// tsconfig "paths" become moduleNameMapper entries so @tokensvc/* libs resolve to their sources.
const path = require('path');
const { compilerOptions } = require('./tsconfig.base.json');

const root = __dirname;
const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
  moduleNameMapper[`^${alias.replace('/', '\\/')}$`] = path.join(root, target);
}

module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          target: 'es2022',
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
          keepClassNames: true,
        },
        module: { type: 'commonjs' },
        sourceMaps: 'inline',
      },
    ],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper,
};
