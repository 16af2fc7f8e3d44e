import { Client } from 'pg';
import { INFRA } from '@tokensvc/testing';
import { createPgPool } from './pg-pool';

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
      expect(messages).toEqual([expect.stringMatching(/^postgres connection lost \(terminating connection due to administrator command\)/)]);
      const { pid: next } = (await pool.query('SELECT pg_backend_pid() AS pid')).rows[0] as { pid: number };
      expect(next).not.toBe(pid);
    } finally {
      await pool.end();
    }
  });
});
