import { AbiCoder, Interface, getAddress } from 'ethers';
import { loadSwapRouter02Artifact } from '../npm-artifacts';
import {
  AMOUNT_PLACEHOLDER,
  placeholderOffset,
  transferAllCall,
  uniswapV2SwapCall,
  uniswapV3SwapCall,
  uniswapV3SwapRouter02Call,
} from './calls';
import { CALLS_ABI_TYPE, routeHash, routerInterface } from './abi';
import { EXECUTE_INPUT_AMOUNT_OFFSET, decodeOrderCalls, encodeExecute, encodeExecuteBridge, encodeExecuteWithPermit } from './router';
import { ALL_BPS } from './types';

const T0 = getAddress('0x1000000000000000000000000000000000000001');
const T1 = getAddress('0x2000000000000000000000000000000000000002');
const TO = getAddress('0x3000000000000000000000000000000000000003');

/** What the executor does before a call: write the amount at the offset. */
function patch(data: string, offset: number, amount: bigint): string {
  const word = amount.toString(16).padStart(64, '0');
  return `0x${data.slice(2, 2 + offset * 2)}${word}${data.slice(2 + offset * 2 + 64)}`;
}

describe('executor call builders', () => {
  it('reads the calls back from a Router transaction of every entry point they are stored with (decodeOrderCalls)', () => {
    const calls = [
      uniswapV2SwapCall({ router02: TO, path: [T0, T1], to: TO, deadline: 1n, bps: 2_500 }),
      { ...transferAllCall(T1, TO), value: 5n },
    ];
    const order = {
      inputToken: T0,
      inputAmount: 10n,
      outputToken: T1,
      minOutputAmount: 1n,
      recipient: TO,
      partner: TO,
      feeBps: 3,
      deadline: 99n,
    };
    const permit = { value: 10n, deadline: 99n, v: 27, r: `0x${'1'.repeat(64)}`, s: `0x${'2'.repeat(64)}` };
    const lower = calls.map((c) => ({
      ...c,
      target: c.target.toLowerCase(),
      inputs: c.inputs.map((i) => ({ ...i, token: i.token.toLowerCase() })),
    }));
    for (const data of [encodeExecute(order, calls), encodeExecuteWithPermit(order, permit, calls), encodeExecuteBridge(order, calls)]) {
      const back = decodeOrderCalls(data);
      expect(back).toEqual(lower);
      expect(routeHash(back)).toBe(routeHash(calls));
    }
    expect(() => decodeOrderCalls('0xdeadbeef')).toThrow('not a Router transaction');
  });

  it('finds the amount word of a V2 swap (first argument) and of a V3 exactInputSingle (6th struct field)', () => {
    const v2 = uniswapV2SwapCall({ router02: TO, path: [T0, T1], to: TO, deadline: 1n, bps: 2_500 });
    expect(v2.inputs).toEqual([{ token: T0, bps: 2_500, amount: 0n, offset: 4, approve: true }]);
    const v3 = uniswapV3SwapCall({ swapRouter: TO, tokenIn: T1, tokenOut: T0, fee: 500, recipient: TO, deadline: 1n });
    expect(v3.inputs[0]).toMatchObject({ token: T1, bps: ALL_BPS, offset: 4 + 5 * 32, approve: true });
  });

  it('writes the amount where the executor will put it: the patched data decodes to that amount', () => {
    const call = transferAllCall(T0, TO);
    const iface = new Interface(['function transfer(address to, uint256 amount)']);
    const patched = patch(call.data, call.inputs[0]!.offset, 123_456n);
    expect(iface.decodeFunctionData('transfer', patched).toArray()).toEqual([TO, 123_456n]);
  });

  describe('SwapRouter02 exactInputSingle', () => {
    const router02 = new Interface(loadSwapRouter02Artifact().abi);
    const params = { tokenIn: T1, tokenOut: T0, fee: 3000, recipient: TO };

    it('encodes like the published ABI, with the placeholder as amountIn', () => {
      const call = uniswapV3SwapRouter02Call({ swapRouter02: T0, ...params, amountOutMinimum: 7n });
      const expected = router02.encodeFunctionData('exactInputSingle', [
        { ...params, amountIn: AMOUNT_PLACEHOLDER, amountOutMinimum: 7n, sqrtPriceLimitX96: 0n },
      ]);
      expect(call.data).toBe(expected);
      expect(call.data.slice(0, 10)).toBe('0x04e45aaf');
      expect(call.target).toBe(T0);
      expect(call.value).toBe(0n);
    });

    it("writes the amount into amountIn (5th struct field, offset 132, not the original router's 164)", () => {
      const call = uniswapV3SwapRouter02Call({ swapRouter02: T0, ...params, bps: 5_000 });
      expect(call.inputs).toEqual([{ token: T1, bps: 5_000, amount: 0n, offset: 4 + 4 * 32, approve: true }]);
      const [decoded] = router02
        .decodeFunctionData('exactInputSingle', patch(call.data, call.inputs[0]!.offset, 987_654_321n))
        .toArray() as [Record<string, unknown>];
      expect({ ...(decoded as { toObject(): Record<string, unknown> }).toObject() }).toEqual({
        ...params,
        fee: 3000n,
        amountIn: 987_654_321n,
        amountOutMinimum: 0n,
        sqrtPriceLimitX96: 0n,
      });
    });

    it('differs from the original SwapRouter call (which has a deadline)', () => {
      const v3 = uniswapV3SwapCall({ swapRouter: T0, ...params, deadline: 1n });
      const v3b = uniswapV3SwapRouter02Call({ swapRouter02: T0, ...params });
      expect(v3.data.slice(0, 10)).not.toBe(v3b.data.slice(0, 10));
      expect(v3.inputs[0]!.offset).toBe(4 + 5 * 32);
    });
  });

  it('refuses call data without the placeholder or with it twice', () => {
    const iface = new Interface(['function f(uint256 a, uint256 b)']);
    expect(() => placeholderOffset(iface.encodeFunctionData('f', [1n, 2n]))).toThrow('found 0');
    expect(() => placeholderOffset(iface.encodeFunctionData('f', [AMOUNT_PLACEHOLDER, AMOUNT_PLACEHOLDER]))).toThrow('found 2');
  });

  it('routeHash is keccak256 of abi.encode(Call[]) and changes with any call detail', () => {
    const calls = [transferAllCall(T0, TO)];
    const encoded = AbiCoder.defaultAbiCoder().encode([CALLS_ABI_TYPE], [calls]);
    expect(AbiCoder.defaultAbiCoder().decode([CALLS_ABI_TYPE], encoded)[0]).toHaveLength(1);
    expect(routeHash(calls)).toMatch(/^0x[0-9a-f]{64}$/);
    expect(routeHash([transferAllCall(T0, T1)])).not.toBe(routeHash(calls));
    expect(routeHash([{ ...calls[0]!, inputs: [{ ...calls[0]!.inputs[0]!, bps: 9_999 }] }])).not.toBe(routeHash(calls));
  });

  it('puts the inputAmount word of execute calldata at EXECUTE_INPUT_AMOUNT_OFFSET', () => {
    const order = {
      inputToken: T0,
      inputAmount: 0n,
      outputToken: T1,
      minOutputAmount: 5n,
      recipient: TO,
      partner: TO,
      feeBps: 0,
      deadline: 9n,
    };
    const data = encodeExecute(order, [transferAllCall(T0, TO)]);
    expect(data.slice(2 + EXECUTE_INPUT_AMOUNT_OFFSET * 2, 2 + (EXECUTE_INPUT_AMOUNT_OFFSET + 32) * 2)).toBe('0'.repeat(64));
    expect(routerInterface().decodeFunctionData('execute', patch(data, EXECUTE_INPUT_AMOUNT_OFFSET, 123_456n))[0].inputAmount).toBe(
      123_456n,
    );
  });
});
