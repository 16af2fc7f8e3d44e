/** Where tests find Postgres, Redis and NATS (the machine's local services by default). */
export const INFRA = {
  postgres: process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  redis: process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379',
  nats: process.env['TEST_NATS_URL'] ?? 'nats://127.0.0.1:4222',
};
