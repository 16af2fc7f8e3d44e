import { Signature, Wallet } from 'ethers';
import { signedOrderTypedData, type SignedRouterOrder } from '@tokensvc/contracts';
import { checkOrderSignature, type SignedOrderTyped } from './signature-check';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const ROUTER = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

describe('checkOrderSignature', () => {
  const wallet = new Wallet('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
  const order: SignedRouterOrder = {
    sender: wallet.address,
    inputToken: '0x0000000000000000000000000000000000000001',
    inputAmount: 1_000_000n,
    outputToken: '0x0000000000000000000000000000000000000002',
    minOutputAmount: 5n,
    recipient: wallet.address,
    partner: '0x0000000000000000000000000000000000000000',
    feeBps: 0,
    relayerFee: 100n,
    submitter: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    routeHash: `0x${'ab'.repeat(32)}`,
    nonce: 42n,
    deadline: 2_000_000_000n,
  };
  const typed = (chainId: number, o: SignedRouterOrder = order): SignedOrderTyped => {
    const t = signedOrderTypedData(chainId, ROUTER, o);
    return { domain: t.domain, types: t.types, value: t.value as unknown as Record<string, unknown> };
  };
  const sign = (t: SignedOrderTyped): Promise<string> => wallet.signTypedData(t.domain, t.types, t.value);

  it('accepts the sender signature of the exact typed data', async () => {
    const t = typed(1);
    expect(checkOrderSignature(t, await sign(t), wallet.address.toLowerCase())).toMatchObject({ ok: true });
  });

  it('refuses the high-s twin of a valid signature (malleability)', async () => {
    const t = typed(1);
    const sig = Signature.from(await sign(t));
    const highS = `0x${(N - BigInt(sig.s)).toString(16).padStart(64, '0')}`;
    const twin = `${sig.r}${highS.slice(2)}${(sig.v === 27 ? 28 : 27).toString(16)}`;
    expect(checkOrderSignature(t, twin, wallet.address)).toEqual({ ok: false, message: expect.stringContaining('high s value') });
  });

  it('refuses a signature over altered values or another chain, naming the recovered address', async () => {
    const signed = await sign(typed(1));
    const altered = typed(1, { ...order, minOutputAmount: 1n });
    expect(checkOrderSignature(altered, signed, wallet.address)).toEqual({
      ok: false,
      message: expect.stringMatching(/^signature does not match the order: it recovers to 0x[0-9a-f]{40}, not the sender/),
    });
    // The route and the submitter are signed terms like any other.
    for (const other of [{ routeHash: `0x${'cd'.repeat(32)}` }, { submitter: '0x0000000000000000000000000000000000000000' }]) {
      expect(checkOrderSignature(typed(1, { ...order, ...other }), signed, wallet.address)).toEqual({
        ok: false,
        message: expect.stringMatching(/^signature does not match the order/),
      });
    }
    const otherChain = await sign(typed(42161));
    expect(checkOrderSignature(typed(1), otherChain, wallet.address)).toEqual({
      ok: false,
      message: expect.stringContaining('same chain id 1'),
    });
  });

  it('refuses malformed signatures', () => {
    expect(checkOrderSignature(typed(1), '0x1234', wallet.address)).toEqual({ ok: false, message: expect.stringContaining('65 bytes') });
    expect(checkOrderSignature(typed(1), `0x${'11'.repeat(64)}05`, wallet.address)).toEqual({
      ok: false,
      message: 'signature v must be 27 or 28, got 5',
    });
  });
});
