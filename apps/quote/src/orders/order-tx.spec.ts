import { ErrorCode } from '@tokensvc/messages';
import { ServiceError } from '@tokensvc/transport';
import { unwrapAllCall, wrapAllCall } from '@tokensvc/contracts';
import type { Action } from '@tokensvc/protocols';
import { v3RouterMissingMessage } from '@tokensvc/protocols';
import { orderCalls } from './order-tx';

const A = '0x00000000000000000000000000000000000000aa';
const B = '0x00000000000000000000000000000000000000bb';
const SWAP_ROUTER = '0x0000000000000000000000000000000000000005';
const SWAP_ROUTER02 = '0x0000000000000000000000000000000000000006';
const terms = {
  executor: '0x00000000000000000000000000000000000000e1',
  recipient: '0x00000000000000000000000000000000000000f1',
  deadline: 1_900_000_000n,
};
const v3Hop: Action = {
  kind: 'swap',
  pool: '0x00000000000000000000000000000000000000cc',
  family: 'uniswap-v3',
  platform: 'uniswap-v3',
  fee: 3000,
  tokenIn: A,
  tokenOut: B,
  bps: 10_000,
};

/** The part of a quote orderCalls reads: the network, the platforms' addresses and the steps. */
const quoteWith = (v3: Record<string, string>): Parameters<typeof orderCalls>[0] =>
  ({
    network: 'base',
    deployment: { platforms: new Map([['uniswap-v3', v3]]) },
    plan: { steps: [{ action: v3Hop }] },
  }) as unknown as Parameters<typeof orderCalls>[0];

describe('orderCalls: the V3 router of a platform', () => {
  it('uses SwapRouter02 when the platform names only `swapRouter02` (the registry of real networks)', () => {
    const [call] = orderCalls(quoteWith({ factory: A, positionManager: B, quoter: A, swapRouter02: SWAP_ROUTER02 }), terms);
    expect(call!.target).toBe(SWAP_ROUTER02);
    expect(call!.data.slice(0, 10)).toBe('0x04e45aaf');
  });

  it('uses the original SwapRouter when the platform names `router` (the devnet), even with `swapRouter02` too', () => {
    const [call] = orderCalls(quoteWith({ factory: A, router: SWAP_ROUTER, swapRouter02: SWAP_ROUTER02 }), terms);
    expect(call!.target).toBe(SWAP_ROUTER);
    expect(call!.data.slice(0, 10)).toBe('0x414bf389');
  });

  it('refuses with a 400 that names the platform, the network and the two keys when it has neither', () => {
    let err: unknown;
    try {
      orderCalls(quoteWith({ factory: A, positionManager: B }), terms);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).code).toBe(ErrorCode.ERROR_CODE_BAD_REQUEST);
    expect((err as ServiceError).message).toBe(v3RouterMissingMessage('uniswap-v3', 'base'));
    expect((err as ServiceError).message).toMatch(
      /^unsupported: platform uniswap-v3 has no router configured on base: .*`router` \(SwapRouter\).*`swapRouter02` \(SwapRouter02\)/,
    );
  });
});

describe('orderCalls: native legs (the Router hands native to the executor as native)', () => {
  const WETH = '0x00000000000000000000000000000000000000ee';
  const withNative = (plan: { wrapNative?: string; unwrapNative?: string }): Parameters<typeof orderCalls>[0] =>
    ({
      network: 'base',
      deployment: { platforms: new Map([['uniswap-v3', { router: SWAP_ROUTER }]]) },
      plan: { steps: [{ action: v3Hop }], ...plan },
    }) as unknown as Parameters<typeof orderCalls>[0];

  it('wraps all the native first for a native input, unwraps all the WETH last for a native output, adds nothing otherwise', () => {
    const [swap] = orderCalls(withNative({}), terms);
    expect(orderCalls(withNative({}), terms)).toEqual([swap]);
    expect(orderCalls(withNative({ wrapNative: WETH }), terms)).toEqual([wrapAllCall(WETH), swap]);
    expect(orderCalls(withNative({ unwrapNative: WETH }), terms)).toEqual([swap, unwrapAllCall(WETH)]);
    // the wrap spends the executor's whole native balance as the call's value: no amount is baked in
    expect(wrapAllCall(WETH)).toEqual({
      target: WETH,
      value: 0n,
      data: '0xd0e30db0',
      inputs: [{ token: '0x0000000000000000000000000000000000000000', bps: 10_000, amount: 0n, offset: 0xffffffff, approve: false }],
    });
  });
});
