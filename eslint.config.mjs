// Lint: module boundaries (Nx tags on two axes: scope and type), banned imports per lib type,
// and the habits that catch real bugs (floating promises, non-exhaustive switches, `any`).
import nx from '@nx/eslint-plugin';
import regexp from 'eslint-plugin-regexp';
import tseslint from 'typescript-eslint';

const INFRA_PACKAGES = ['typeorm', 'pg', 'ethers', 'bullmq', 'ioredis', '@nestjs/*', 'nats'];

const depConstraints = (allowTesting) => [
  { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared', ...(allowTesting ? ['scope:tooling'] : [])] },
  ...['gateway', 'token-data', 'indexer', 'quote', 'status-tracker'].map((s) => ({
    sourceTag: `scope:${s}`,
    onlyDependOnLibsWithTags: [`scope:${s}`, 'scope:shared', ...(allowTesting ? ['scope:tooling'] : [])],
  })),
  { sourceTag: 'scope:tooling', onlyDependOnLibsWithTags: ['scope:tooling', 'scope:shared', 'scope:sdk'] },
  // The SDK (libs/sdk) is published on its own: it depends on no lib (only its generated types) and on no server package.
  { sourceTag: 'scope:sdk', onlyDependOnLibsWithTags: ['scope:sdk'] },
  {
    sourceTag: 'type:sdk',
    onlyDependOnLibsWithTags: ['type:sdk'],
    bannedExternalImports: [...INFRA_PACKAGES.filter((p) => p !== 'ethers'), 'fastify', ...(allowTesting ? [] : ['ethers', 'viem'])],
  },
  // examples/: scripts on the SDK only.
  { sourceTag: 'scope:examples', onlyDependOnLibsWithTags: ['scope:sdk'] },
  {
    sourceTag: 'type:examples',
    onlyDependOnLibsWithTags: ['type:sdk'],
    bannedExternalImports: INFRA_PACKAGES.filter((p) => p !== 'ethers'),
  },
  { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:domain'], bannedExternalImports: INFRA_PACKAGES },
  {
    sourceTag: 'type:messages',
    onlyDependOnLibsWithTags: ['type:domain', 'type:messages'],
    bannedExternalImports: INFRA_PACKAGES.filter((p) => p !== 'nats'),
  },
  {
    sourceTag: 'type:util',
    onlyDependOnLibsWithTags: ['type:domain'],
    bannedExternalImports: ['typeorm', 'pg', 'ethers', 'bullmq', 'ioredis'],
  },
  {
    sourceTag: 'type:contracts',
    onlyDependOnLibsWithTags: ['type:domain'],
    bannedExternalImports: ['typeorm', 'pg', 'bullmq', 'ioredis', '@nestjs/*'],
  },
  // Protocol modules (libs/protocols): one folder per family over the domain, routing maths and call encoders.
  {
    sourceTag: 'type:protocol',
    onlyDependOnLibsWithTags: ['type:domain', 'type:contracts'],
    bannedExternalImports: ['typeorm', 'pg', 'bullmq', 'ioredis', '@nestjs/*'],
  },
  {
    sourceTag: 'type:data-access',
    onlyDependOnLibsWithTags: ['type:domain', 'type:messages', 'type:util', 'type:contracts', ...(allowTesting ? ['type:testing'] : [])],
  },
  // Builds on data-access libs (a bridge adapter over the chain client): used by apps, tooling and tests.
  {
    sourceTag: 'type:integration',
    onlyDependOnLibsWithTags: [
      'type:domain',
      'type:messages',
      'type:util',
      'type:contracts',
      'type:data-access',
      ...(allowTesting ? ['type:testing'] : []),
    ],
  },
  { sourceTag: 'type:transport', onlyDependOnLibsWithTags: ['type:domain', 'type:messages', 'type:util'] },
  {
    sourceTag: 'type:app',
    onlyDependOnLibsWithTags: [
      'type:domain',
      'type:messages',
      'type:util',
      'type:data-access',
      'type:integration',
      'type:transport',
      'type:contracts',
      'type:protocol',
      ...(allowTesting ? ['type:testing', 'type:tooling'] : []),
    ],
  },
  {
    sourceTag: 'type:tooling',
    onlyDependOnLibsWithTags: [
      'type:sdk',
      'type:domain',
      'type:util',
      'type:contracts',
      'type:protocol',
      'type:data-access',
      'type:integration',
      'type:messages',
      'type:transport',
      'type:tooling',
      'type:testing',
    ],
  },
  {
    sourceTag: 'type:testing',
    onlyDependOnLibsWithTags: [
      'type:domain',
      'type:util',
      'type:data-access',
      'type:integration',
      'type:messages',
      'type:transport',
      'type:contracts',
      'type:protocol',
      'type:tooling',
      'type:testing',
    ],
  },
];

const TEST_FILES = ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts'];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/generated/**', '.devnet/**', 'tmp/**', 'dist/**', '**/*.js', '**/*.mjs'] },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          banTransitiveDependencies: false,
          checkNestedExternalImports: true,
          depConstraints: depConstraints(false),
        },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../../libs/*', '../../../libs/*', '@tokensvc/*/src/*'],
              message: 'import libs by their @tokensvc/* name, never by a deep or relative path',
            },
          ],
        },
      ],
    },
  },
  {
    // Regular expressions run on untrusted input (queries, headers, RPC replies): none may backtrack
    // super-linearly or scan super-linearly from each start position (ReDoS), and none may hide an
    // ambiguity that makes it slow or wrong. Checked everywhere, so a pattern cannot move into a
    // request path unchecked.
    files: ['**/*.ts'],
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': ['error', { report: 'potential' }],
      'regexp/no-super-linear-move': ['error', { report: 'potential', ignoreSticky: false, ignorePartial: false }],
      'regexp/no-dupe-disjunctions': ['error', { report: 'all' }],
      'regexp/no-misleading-capturing-group': ['error', { reportBacktrackingEnds: true }],
      'regexp/optimal-quantifier-concatenation': 'error',
      'regexp/no-trivially-nested-quantifier': 'error',
      'regexp/no-useless-quantifier': 'error',
      'regexp/confusing-quantifier': 'error',
      'regexp/no-empty-alternative': 'error',
      'regexp/no-invalid-regexp': 'error',
    },
  },
  {
    // Tests may use the testing harness and the devnet tooling.
    files: TEST_FILES,
    rules: {
      '@nx/enforce-module-boundaries': ['error', { enforceBuildableLibDependency: false, allow: [], depConstraints: depConstraints(true) }],
      // Tests read untyped JSON bodies off the wire.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
);
