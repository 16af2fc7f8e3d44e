/**
 * A webhook registered without a key belongs to whoever holds the owner token its registration
 * returned, not to a client address (issue 30): two anonymous clients behind one address (a NAT,
 * an IPv6 /64) are two owners. Over real HTTP; the status tracker's webhook subjects are answered
 * by a stand-in that keeps webhooks by the owner the gateway sends, as the tracker's store does
 * (its own ownership rules: apps/status-tracker/src/push/push.int-spec.ts).
 */
import { randomUUID } from 'node:crypto';
import { DeleteWebhookReply, ErrorCode, ListWebhooksReply, RegisterWebhookReply, RPC } from '@tokensvc/messages';
import { createTestDatabaseUrl, freePort, INFRA, PrivateNatsServer } from '@tokensvc/testing';
import type { NatsConnection } from 'nats';
import { GatewayHarness, serveRpc } from './harness';

jest.setTimeout(60_000);

describe('webhook owners without a key (real HTTP, Redis, Postgres, NATS)', () => {
  let nats: PrivateNatsServer;
  let gw: GatewayHarness;
  let responders: NatsConnection[] = [];
  /** the stand-in tracker's webhooks: id -> owner */
  const hooks = new Map<string, string>();
  const ORDER = 'order-1';
  const TX = `0x${'cd'.repeat(32)}`;

  beforeAll(async () => {
    nats = new PrivateNatsServer(await freePort());
    await nats.start();
    responders = [
      await serveRpc(nats.url, RPC.registerWebhook, (req) => {
        const id = randomUUID();
        hooks.set(id, req.owner);
        return RegisterWebhookReply.fromJSON({
          id,
          secret: 'whsec_x',
          orderId: req.orderId,
          txHash: req.txHash,
          url: req.url,
          status: 'PENDING',
          createdAt: new Date().toISOString(),
        });
      }),
      await serveRpc(nats.url, RPC.listWebhooks, (req) =>
        ListWebhooksReply.fromJSON({
          webhooks: [...hooks]
            .filter(([, owner]) => owner === req.owner)
            .map(([id]) => ({
              id,
              orderId: ORDER,
              txHash: TX,
              url: 'https://hooks.example/x',
              state: 'active',
              createdAt: new Date().toISOString(),
            })),
        }),
      ),
      await serveRpc(nats.url, RPC.deleteWebhook, (req) => {
        if (hooks.get(req.id) !== req.owner)
          throw { code: ErrorCode.ERROR_CODE_NOT_FOUND, message: `no webhook ${req.id} registered by this caller` };
        hooks.delete(req.id);
        return DeleteWebhookReply.fromJSON({ id: req.id });
      }),
    ];
    gw = await GatewayHarness.start({
      infra: { databaseUrl: createTestDatabaseUrl('gw_webhook_owner'), redisUrl: INFRA.redis, natsUrl: nats.url },
    });
  });

  afterAll(async () => {
    await gw?.close();
    for (const r of responders) await r.close();
    await nats?.stop();
  });

  const register = async (extra = ''): Promise<{ status: number; body: { id: string; ownerToken?: string } }> => {
    const res = await gw.request(
      `/v3/portal/webhooks?orderId=${ORDER}&txHash=${TX}&url=${encodeURIComponent('https://hooks.example/x')}${extra}`,
      { method: 'POST' },
    );
    return { status: res.status, body: (await res.json()) as { id: string; ownerToken?: string } };
  };
  const list = async (token?: string): Promise<{ status: number; body: { webhooks?: Array<{ id: string }>; message?: string } }> => {
    const res = await gw.request(`/v3/portal/webhooks?orderId=${ORDER}&txHash=${TX}${token ? `&ownerToken=${token}` : ''}`);
    return { status: res.status, body: (await res.json()) as { webhooks?: Array<{ id: string }>; message?: string } };
  };

  it('returns an owner token with an anonymous registration; only that token lists and deletes the webhook, not the client address', async () => {
    // two anonymous clients at one address (every request of this test comes from 127.0.0.1)
    const a = await register();
    const b = await register();
    expect(a.status).toBe(201);
    expect(a.body.ownerToken).toMatch(/^0x[0-9a-f]{64}$/);
    expect(b.body.ownerToken).toMatch(/^0x[0-9a-f]{64}$/);
    expect(b.body.ownerToken).not.toBe(a.body.ownerToken);
    // the address alone owns nothing: a 400 that says what to send
    const bare = await list();
    expect(bare.status).toBe(400);
    expect(bare.body.message).toMatch(/ownerToken is required without an API key/);
    // each token sees its own webhook only
    expect((await list(a.body.ownerToken)).body.webhooks?.map((w) => w.id)).toEqual([a.body.id]);
    expect((await list(b.body.ownerToken)).body.webhooks?.map((w) => w.id)).toEqual([b.body.id]);
    // B cannot delete A's webhook; A can
    expect((await gw.request(`/v3/portal/webhooks?id=${a.body.id}&ownerToken=${b.body.ownerToken}`, { method: 'DELETE' })).status).toBe(
      404,
    );
    expect((await gw.request(`/v3/portal/webhooks?id=${a.body.id}`, { method: 'DELETE' })).status).toBe(400);
    expect((await gw.request(`/v3/portal/webhooks?id=${a.body.id}&ownerToken=${a.body.ownerToken}`, { method: 'DELETE' })).status).toBe(
      200,
    );
    expect(hooks.has(a.body.id)).toBe(false);
    // a registration that presents its token joins that owner (and gets the same token back)
    const again = await register(`&ownerToken=${b.body.ownerToken}`);
    expect(again.body.ownerToken).toBe(b.body.ownerToken);
    expect((await list(b.body.ownerToken)).body.webhooks?.map((w) => w.id).sort()).toEqual([b.body.id, again.body.id].sort());
  });

  it('a keyed registration belongs to its key and carries no owner token', async () => {
    const { key } = await gw.issue('free');
    const res = await gw.request(`/v3/portal/webhooks?orderId=${ORDER}&txHash=${TX}&url=${encodeURIComponent('https://hooks.example/k')}`, {
      method: 'POST',
      key,
    });
    const body = (await res.json()) as { id: string; ownerToken?: string };
    expect(res.status).toBe(201);
    expect(body.ownerToken).toBeUndefined();
    const listed = await gw.request(`/v3/portal/webhooks?orderId=${ORDER}&txHash=${TX}`, { key });
    expect(((await listed.json()) as { webhooks: Array<{ id: string }> }).webhooks.map((w) => w.id)).toEqual([body.id]);
  });
});
