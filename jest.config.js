// One Jest run for the whole workspace (`npm test` and CI). Tiers are folders by suffix:
//   *.spec.ts      unit: pure functions, no I/O
//   *.int-spec.ts  integration: real Postgres, Redis, NATS and anvil
//   *.e2e-spec.ts  end to end: the five apps as processes, over HTTP through the gateway
const preset = require('./jest.preset');

const base = { ...preset, rootDir: __dirname, roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools', '<rootDir>/bench'] };

module.exports = {
  projects: [
    { ...base, displayName: 'unit', testMatch: ['**/*.spec.ts'] },
    {
      ...base,
      displayName: 'integration',
      testMatch: ['**/*.int-spec.ts'],
      globalSetup: '<rootDir>/libs/testing/src/jest/global-setup.js',
      globalTeardown: '<rootDir>/libs/testing/src/jest/global-teardown.js',
      setupFilesAfterEnv: ['<rootDir>/libs/testing/src/jest/timeout.js'],
    },
    {
      ...base,
      displayName: 'e2e',
      testMatch: ['**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/libs/testing/src/jest/global-setup.js',
      globalTeardown: '<rootDir>/libs/testing/src/jest/global-teardown.js',
      setupFilesAfterEnv: ['<rootDir>/libs/testing/src/jest/timeout.js'],
    },
  ],
};
