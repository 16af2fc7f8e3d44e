/**
 * The deposit message that runs a destination leg through Across's MulticallHandler (5.x,
 * `contracts/handlers/MulticallHandler.sol` of @across-protocol/contracts 5.0.27). The SpokePool
 * pays the deposit's outputAmount to the handler (the deposit's recipient) and calls its
 * `handleV3AcrossMessage` with the message, which decodes `Instructions { Call[] calls; address
 * fallbackRecipient }` and runs the calls from the handler itself.
 *
 * The fallback recipient is the zero address on purpose: the handler then runs the calls with
 * `this.attemptCalls`, so a call that reverts (a destination swap that would pay less than the
 * order's minimum) reverts the whole fill. No relayer can fill such a deposit, it expires and
 * Across refunds the depositor on the origin: an order either delivers its minimum of the final
 * token or is refunded, as with a deposit that nobody fills.
 *
 * Amounts are the handler's balance when the call runs (`makeCallWithBalance`), so the calls hold
 * whatever the relayer paid, and the last call sends any leftover of the arriving token to
 * `leftoverRecipient` (`drainLeftoverTokens`, which only the handler may call on itself).
 * `across-abi.spec.ts` checks these fragments against the package's MulticallHandler artifact.
 */
import { AbiCoder, Interface, ZeroAddress, getAddress } from 'ethers';
import type { BridgeDestinationMessage } from '../provider';

export const ACROSS_MULTICALL_HANDLER_FRAGMENTS: readonly string[] = [
  'function handleV3AcrossMessage(address token, uint256, address, bytes message)',
  'function makeCallWithBalance(address target, bytes callData, uint256 value, tuple(address token, uint256 offset)[] replacement)',
  'function drainLeftoverTokens(address token, address destination)',
];

/** `Instructions` as `abi.decode(message, (Instructions))` reads it. */
const INSTRUCTIONS = 'tuple(tuple(address target, bytes callData, uint256 value)[] calls, address fallbackRecipient)';
const ERC20_APPROVE = new Interface(['function approve(address spender, uint256 amount) returns (bool)']);
/** Byte offset of `amount` in `approve` calldata: the selector, then the spender word. */
const APPROVE_AMOUNT_OFFSET = 4 + 32;

let iface: Interface | undefined;
export function acrossMulticallHandlerInterface(): Interface {
  return (iface ??= new Interface(ACROSS_MULTICALL_HANDLER_FRAGMENTS as string[]));
}

interface HandlerCall {
  target: string;
  callData: string;
  value: bigint;
}

/**
 * The message bytes for `handler` receiving `token`: for each call an optional approval of the
 * handler's whole balance to the call's target, then the call with that balance written at its
 * `balanceOffset`; last, the leftover of `token` to `message.leftoverRecipient`.
 */
export function encodeAcrossMulticallMessage(handler: string, token: string, message: BridgeDestinationMessage): string {
  const h = acrossMulticallHandlerInterface();
  const withBalance = (target: string, callData: string, value: bigint, offset: number): HandlerCall => ({
    target: getAddress(handler),
    callData: h.encodeFunctionData('makeCallWithBalance', [getAddress(target), callData, value, [{ token: getAddress(token), offset }]]),
    value: 0n,
  });
  const calls: HandlerCall[] = [];
  for (const c of message.calls) {
    if (c.approveBalance)
      calls.push(withBalance(token, ERC20_APPROVE.encodeFunctionData('approve', [getAddress(c.target), 0n]), 0n, APPROVE_AMOUNT_OFFSET));
    if (c.balanceOffset !== undefined) {
      if (BigInt(`0x${c.data.slice(2 + c.balanceOffset * 2, 2 + (c.balanceOffset + 32) * 2) || '0'}`) !== 0n)
        throw new Error(
          `the amount word at byte ${c.balanceOffset} of a destination call must be zero (the handler ORs its balance into it)`,
        );
      calls.push(withBalance(c.target, c.data, c.value, c.balanceOffset));
    } else {
      calls.push({ target: getAddress(c.target), callData: c.data, value: c.value });
    }
  }
  calls.push({
    target: getAddress(handler),
    callData: h.encodeFunctionData('drainLeftoverTokens', [getAddress(token), getAddress(message.leftoverRecipient)]),
    value: 0n,
  });
  return AbiCoder.defaultAbiCoder().encode([INSTRUCTIONS], [{ calls, fallbackRecipient: ZeroAddress }]);
}

/** The calls and fallback recipient of a message (for tests and logs). */
export function decodeAcrossMulticallMessage(message: string): { calls: HandlerCall[]; fallbackRecipient: string } {
  const [decoded] = AbiCoder.defaultAbiCoder().decode([INSTRUCTIONS], message) as unknown as [
    { calls: Array<{ target: string; callData: string; value: bigint }>; fallbackRecipient: string },
  ];
  return {
    calls: decoded.calls.map((c) => ({ target: c.target, callData: c.callData, value: c.value })),
    fallbackRecipient: decoded.fallbackRecipient,
  };
}
