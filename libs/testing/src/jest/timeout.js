// Integration and e2e tests talk to real services and chains: 120 s per test. (Jest 30 does not
// apply `testTimeout` given inside a project's config, so the tiers set it here.)
jest.setTimeout(120_000);
