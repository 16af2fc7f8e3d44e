import { Client } from 'pg';
import { INFRA } from '@tokensvc/testing';
import { createDataSource } from './data-source';
import { PersistenceModule } from './nest/persistence.module';
import { createPgPool, DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_STATEMENT_TIMEOUT_MS } from './pg-pool';

describe('createPgPool', () => {
  it('reports a connection the server terminated and serves the next query on a new one', async () => {
    const messages: string[] = [];
    const pool = createPgPool({ connectionString: INFRA.postgres, max: 1, application_name: 'pg-pool-spec' }, (m) => messages.push(m));
    try {
      const { pid } = (await pool.query('SELECT pg_backend_pid() AS pid')).rows[0] as { pid: number };
      const admin = new Client({ connectionString: INFRA.postgres });
      await admin.connect();
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      await admin.end();
      const deadline = Date.now() + 5_000;
      while (messages.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(messages).toEqual([
        expect.stringMatching(/^postgres connection lost \(terminating connection due to administrator command\)/),
      ]);
      const { pid: next } = (await pool.query('SELECT pg_backend_pid() AS pid')).rows[0] as { pid: number };
      expect(next).not.toBe(pid);
    } finally {
      await pool.end();
    }
  });

  it("bounds every statement (30 s by default, or the caller's) and the wait for a connection (5 s by default)", async () => {
    const pool = createPgPool({ connectionString: INFRA.postgres, max: 1, application_name: 'pg-pool-spec' });
    try {
      expect((await pool.query('SHOW statement_timeout')).rows[0]).toEqual({
        statement_timeout: `${DEFAULT_STATEMENT_TIMEOUT_MS / 1000}s`,
      });
      expect((await pool.query('SHOW idle_in_transaction_session_timeout')).rows[0]).toEqual({
        idle_in_transaction_session_timeout: '1min',
      });
      expect((pool as unknown as { options: { connectionTimeoutMillis: number } }).options.connectionTimeoutMillis).toBe(
        DEFAULT_CONNECT_TIMEOUT_MS,
      );
    } finally {
      await pool.end();
    }
    const short = createPgPool({
      connectionString: INFRA.postgres,
      max: 1,
      statement_timeout: 200,
      connectionTimeoutMillis: 300,
      application_name: 'pg-pool-spec',
    });
    try {
      const t = Date.now();
      await expect(short.query('SELECT pg_sleep(5)')).rejects.toThrow(/canceling statement due to statement timeout/);
      expect(Date.now() - t).toBeLessThan(3_000);
      // The only connection is held: the next caller gives up after connectionTimeoutMillis.
      const held = await short.connect();
      try {
        const w = Date.now();
        await expect(short.query('SELECT 1')).rejects.toThrow(/timeout exceeded when trying to connect/);
        expect(Date.now() - w).toBeLessThan(2_000);
      } finally {
        held.release();
      }
      expect((await short.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await short.end();
    }
  });

  it('ends a transaction left idle past its bound, releasing its row locks', async () => {
    const pool = createPgPool({
      connectionString: INFRA.postgres,
      max: 1,
      idle_in_transaction_session_timeout: 300,
      application_name: 'pg-pool-spec',
    });
    const other = new Client({ connectionString: INFRA.postgres });
    await other.connect();
    try {
      const holder = await pool.connect();
      holder.on('error', () => undefined);
      await holder.query('BEGIN');
      await holder.query(`SELECT pg_advisory_xact_lock(4242)`);
      expect((await other.query<{ ok: boolean }>(`SELECT pg_try_advisory_xact_lock(4242) AS ok`)).rows[0]!.ok).toBe(false);
      // As if it awaited an RPC call for longer than the bound: the server ends the session and its locks go.
      await new Promise((r) => setTimeout(r, 1_500));
      expect((await other.query<{ ok: boolean }>(`SELECT pg_try_advisory_xact_lock(4242) AS ok`)).rows[0]!.ok).toBe(true);
      holder.release(true);
    } finally {
      await other.end();
      await pool.end();
    }
  });

  it("the services' TypeORM pools carry the statement timeout; migrations do not", async () => {
    const app = createDataSource({ url: INFRA.postgres, poolSize: 1, statementTimeoutMs: DEFAULT_STATEMENT_TIMEOUT_MS });
    const migrations = createDataSource({ url: INFRA.postgres, poolSize: 1 });
    await app.initialize();
    await migrations.initialize();
    try {
      expect(await app.query('SHOW statement_timeout')).toEqual([{ statement_timeout: '30s' }]);
      expect(await migrations.query('SHOW statement_timeout')).toEqual([{ statement_timeout: '0' }]);
    } finally {
      await app.destroy();
      await migrations.destroy();
    }
    // PersistenceModule (every service's DataSource) builds it with the default.
    const factory = (
      PersistenceModule.forRoot(INFRA.postgres, 'pg-pool-spec', 1).providers![0] as {
        useFactory: () => Promise<import('typeorm').DataSource>;
      }
    ).useFactory;
    const ds = await factory();
    try {
      expect(await ds.query('SHOW statement_timeout')).toEqual([{ statement_timeout: '30s' }]);
    } finally {
      await ds.destroy();
    }
  });
});
