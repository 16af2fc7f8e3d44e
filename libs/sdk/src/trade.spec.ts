import { Wallet, verifyTypedData } from 'ethers';
import {
  createTokensvc,
  fromEthers,
  OrderFailedError,
  submitSignedOrder,
  swap,
  typedDataMessage,
  type Receipt,
  type TxRequest,
  type WalletAdapter,
} from './index';
import { FakeServer, json } from './testing/fake-server';

const USDC = 'ethereum:0x00000000000000000000000000000000000000a1';
const WETH = 'ethereum:0x00000000000000000000000000000000000000b2';
const ROUTER = '0x00000000000000000000000000000000000000c3';
const SIGNED_ORDER = {
  domain: { name: 'Router', version: '1', chainId: 1, verifyingContract: ROUTER },
  types: {
    EIP712Domain: [{ name: 'name', type: 'string' }],
    Order: [
      { name: 'owner', type: 'address' },
      { name: 'input', type: 'TokenAmount' },
      { name: 'routeHash', type: 'bytes32' },
    ],
    TokenAmount: [
      { name: 'token', type: 'address' },
      { name: 'amount', type: 'uint256' },
    ],
  },
  value: {
    owner: '0x00000000000000000000000000000000000000d4',
    input: { token: USDC.split(':')[1], amount: '1000' },
    routeHash: `0x${'11'.repeat(32)}`,
  },
};

/** A wallet that records what it is asked to send and mines everything (status chosen per test). */
class RecordingWallet implements WalletAdapter {
  readonly sent: TxRequest[] = [];
  constructor(
    private readonly signer = Wallet.createRandom(),
    private readonly outcome: Receipt['status'] = 'success',
  ) {}
  getAddress = async (): Promise<string> => this.signer.address;
  sendTransaction = async (tx: TxRequest): Promise<string> => {
    this.sent.push(tx);
    return `0x${String(this.sent.length).padStart(64, '0')}`;
  };
  getReceipt = async (hash: string): Promise<Receipt> => ({ hash, status: this.outcome, blockNumber: 1n });
  signTypedData = fromEthers(this.signer).signTypedData;
}

describe('trade helpers (fake server on loopback, a recording wallet)', () => {
  let server: FakeServer;
  let order: Record<string, any>;
  beforeEach(async () => {
    server = await new FakeServer().start();
    order = {
      context: { orderId: 'o-1', value: '0', target: ROUTER },
      tx: { to: ROUTER, data: '0xfeed', value: '0', gasLimit: '300000' },
      signedOrder: SIGNED_ORDER,
    };
    server.handler = (_req, res, url) => {
      if (url.pathname === '/v2/approval')
        return json(res, 200, {
          context: { network: 'ethereum', shouldApprove: true, canPermit: false, spender: ROUTER },
          approve: { to: USDC.split(':')[1], data: '0xa9' },
        });
      if (url.pathname === '/v2/portal' && _req.method === 'GET') return json(res, 200, order);
      if (url.pathname === '/v2/portal') return json(res, 200, { ...order, status: 'pending', txHashes: [] });
      json(res, 404, { message: 'no route' });
    };
  });
  afterEach(() => server.stop());

  it('swap(): approval sent when the allowance is short (asked with outputToken), then the order transaction as the API built it', async () => {
    const wallet = new RecordingWallet();
    const svc = createTokensvc({ baseUrl: server.baseUrl });
    const r = await swap(svc, wallet, { inputToken: USDC, inputAmount: 1000n, outputToken: WETH, slippageTolerancePercentage: 1 });
    expect(wallet.sent).toEqual([
      { to: USDC.split(':')[1], data: '0xa9', value: 0n },
      { to: ROUTER, data: '0xfeed', value: 0n, gasLimit: 300000n },
    ]);
    expect(r).toMatchObject({
      approvalTxHash: `0x${'1'.padStart(64, '0')}`,
      txHash: `0x${'2'.padStart(64, '0')}`,
      order: { context: { orderId: 'o-1' } },
      receipt: { status: 'success' },
    });
    const sender = (await wallet.getAddress()).toLowerCase();
    const queries = server.requests.map(
      (q) => `${q.url.pathname}?${[...q.url.searchParams].map(([k, v]) => `${k}=${v.toLowerCase()}`).join('&')}`,
    );
    expect(queries).toEqual([
      `/v2/approval?sender=${sender}&inputToken=${USDC}&inputAmount=1000&outputToken=${WETH}`,
      `/v2/portal?sender=${sender}&inputToken=${USDC}&inputAmount=1000&outputToken=${WETH}&slippageTolerancePercentage=1`,
    ]);
  });

  it('swap(): native input asks no approval; a reverted order transaction is an OrderFailedError', async () => {
    const wallet = new RecordingWallet(Wallet.createRandom(), 'reverted');
    order.tx.value = '5';
    const svc = createTokensvc({ baseUrl: server.baseUrl });
    const err = await swap(svc, wallet, {
      inputToken: 'ethereum:0x0000000000000000000000000000000000000000',
      inputAmount: '5',
      outputToken: WETH,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OrderFailedError);
    expect((err as Error).message).toMatch(/order o-1: transaction 0x0+1 reverted/);
    expect(server.paths()).toEqual(['/v2/portal']);
    expect(wallet.sent).toEqual([{ to: ROUTER, data: '0xfeed', value: 5n, gasLimit: 300000n }]);
  });

  it('submitSignedOrder(): the typed data signed by the wallet (recoverable to it) and POSTed with the order id', async () => {
    const signer = Wallet.createRandom();
    const wallet = new RecordingWallet(signer);
    const svc = createTokensvc({ baseUrl: server.baseUrl });
    const r = await submitSignedOrder(svc, wallet, { inputToken: USDC, inputAmount: 1000n, outputToken: WETH });
    const post = server.requests.find((q) => q.method === 'POST')!;
    expect(post.url.searchParams.get('orderId')).toBe('o-1');
    expect(post.url.searchParams.get('signature')).toBe(r.signature);
    const { EIP712Domain: _, ...types } = SIGNED_ORDER.types;
    expect(verifyTypedData(SIGNED_ORDER.domain, types, SIGNED_ORDER.value, r.signature)).toBe(signer.address);
    expect(r.submitted.status).toBe('pending');
    expect(wallet.sent).toHaveLength(1); // the approval only: the relayer sends the order
  });

  it('submitSignedOrder() refuses an order without signedOrder', async () => {
    delete order.signedOrder;
    const svc = createTokensvc({ baseUrl: server.baseUrl });
    await expect(submitSignedOrder(svc, new RecordingWallet(), { inputToken: USDC, inputAmount: 1n, outputToken: WETH })).rejects.toThrow(
      /has no signedOrder/,
    );
  });

  it('typedDataMessage() leaves out EIP712Domain and names the primary type; ambiguous types are refused', () => {
    const m = typedDataMessage(SIGNED_ORDER);
    expect(m.primaryType).toBe('Order');
    expect(Object.keys(m.types).sort()).toEqual(['Order', 'TokenAmount']);
    expect(() =>
      typedDataMessage({ ...SIGNED_ORDER, types: { A: [{ name: 'x', type: 'uint256' }], B: [{ name: 'y', type: 'uint256' }] } }),
    ).toThrow(/2 candidate primary types \(A, B\)/);
  });
});
