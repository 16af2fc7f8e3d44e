import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { HttpPoster } from './http-post';

/**
 * HttpPoster on a local HTTP server: bodies with a content length are read into one reused
 * buffer, others (chunked, gzip) are concatenated; either way the bytes are the server's.
 */
describe('HttpPoster', () => {
  let server: Server;
  let url: string;
  const bodyOf = (n: number, seed: number): Buffer => Buffer.from(Array.from({ length: n }, (_, i) => 97 + ((i * 7 + seed) % 26)));

  beforeAll(async () => {
    server = createServer((req, res) => {
      const u = new URL(req.url ?? '/', 'http://x');
      const n = Number(u.searchParams.get('n'));
      const seed = Number(u.searchParams.get('seed'));
      const body = bodyOf(n, seed);
      req.resume();
      req.on('end', () => {
        if (u.pathname === '/chunked') {
          res.writeHead(200, { 'content-type': 'application/json' });
          for (let i = 0; i < body.length; i += 10_000) res.write(body.subarray(i, i + 10_000));
          res.end();
        } else if (u.pathname === '/gzip') {
          const z = gzipSync(body);
          res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': z.length });
          res.end(z);
        } else {
          res.writeHead(200, { 'content-length': body.length });
          res.end(body);
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((r) => server.close(r));
  });

  it('reads bodies of a known length into a buffer it reuses once released', async () => {
    const big = new HttpPoster(`${url}/plain?n=400000&seed=2`);
    try {
      const r1 = await big.post('{}', 5000);
      expect(r1.body.equals(bodyOf(400_000, 2))).toBe(true);
      const backing = r1.body.buffer;
      big.release(r1.body);
      big.release(r1.body); // twice: kept once
      // the next reply fits into the released buffer: same memory, the reply's bytes
      const r2 = await big.post('{}', 5000);
      expect(r2.body.buffer).toBe(backing);
      expect(r2.body.length).toBe(400_000);
      expect(r2.body.equals(bodyOf(400_000, 2))).toBe(true);
      // not released: the next reply gets other memory
      const r3 = await big.post('{}', 5000);
      expect(r3.body.buffer).not.toBe(backing);
      expect(r3.body.equals(bodyOf(400_000, 2))).toBe(true);
    } finally {
      big.close();
    }
  });

  it('keeps separate buffers for replies in flight together, and concatenates chunked and gzip bodies', async () => {
    const p = new HttpPoster(`${url}/plain?n=250000&seed=3`);
    const [x, y] = await Promise.all([p.post('{}', 5000), p.post('{}', 5000)]);
    expect(x.body.buffer).not.toBe(y.body.buffer);
    expect(x.body.equals(bodyOf(250_000, 3)) && y.body.equals(bodyOf(250_000, 3))).toBe(true);
    p.close();
    const chunked = new HttpPoster(`${url}/chunked?n=123457&seed=4`);
    expect((await chunked.post('{}', 5000)).body.equals(bodyOf(123_457, 4))).toBe(true);
    chunked.close();
    const gz = new HttpPoster(`${url}/gzip?n=200000&seed=5`);
    expect((await gz.post('{}', 5000)).body.equals(bodyOf(200_000, 5))).toBe(true);
    gz.close();
  });
});
