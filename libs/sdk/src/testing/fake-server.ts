/** A loopback HTTP server for the SDK's unit tests: each test sets the handler; every request is recorded. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>;

export class FakeServer {
  readonly requests: { method: string; url: URL; headers: IncomingMessage['headers'] }[] = [];
  handler: Handler = (_req, res) => json(res, 500, { message: 'no handler' });
  private readonly server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    this.requests.push({ method: req.method ?? 'GET', url, headers: req.headers });
    Promise.resolve(this.handler(req, res, url)).catch((e: unknown) => json(res, 500, { message: String(e) }));
  });
  baseUrl = '';

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  paths(): string[] {
    return this.requests.map((r) => r.url.pathname);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** An error body as the gateway sends it. */
export const errorBody = (statusCode: number, error: string, message: string, code: string): Record<string, unknown> => ({
  statusCode,
  error,
  message,
  code,
});
