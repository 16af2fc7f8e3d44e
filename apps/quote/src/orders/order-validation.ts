/**
 * validate=true: what the spec's known failure causes would do to this transaction now. Balance
 * and allowance are read first (so the answer names the cause), then the transaction itself runs
 * with eth_call and eth_estimateGas from the sender, then native gas is checked.
 */
import { Interface } from 'ethers';
import { decodeUintResult, multicall } from '@tokensvc/chain';
import { ZERO_ADDRESS } from '@tokensvc/domain';
import type { ChainClients } from '../chain/chain-clients';
import { simulateTx } from '../chain/simulate';
import type { OrderTx } from './order-tx';
import type { Quote } from './quote-engine';
import { badRequest } from './request-parsing';
import { bufferedGas } from './slippage';

const ERC20 = new Interface([
  'function balanceOf(address) view returns (uint256)',
  'function allowance(address,address) view returns (uint256)',
]);

/** `gasShortfall`: the sender cannot pay the gas of `tx` itself (it may still sign the signed-order variant). */
export type Validation =
  { ok: true; output: bigint; gasLimit: bigint; gasShortfall?: string } | { ok: false; received: bigint; minimum: bigint };

const TRANSFER_FAILURES = new Set(['ERC20InsufficientAllowance', 'ERC20InsufficientBalance', 'SafeERC20FailedOperation']);

export class OrderValidator {
  constructor(private readonly chains: ChainClients) {}

  async validate(quote: Quote, tx: OrderTx, sender: string, isPermit: boolean): Promise<Validation> {
    const client = this.chains.get(quote.network);
    const amount = tx.order.inputAmount;
    const native = quote.input.address === ZERO_ADDRESS;
    const nativeBalance = BigInt(await client.call<string>('eth_getBalance', [sender, 'latest']));
    if (native && nativeBalance < amount)
      throw badRequest(`insufficient funds: the sender holds ${nativeBalance} wei of the native token and the order sends ${amount}`);
    if (!native) {
      const [balance, allowance] = (
        await multicall(client, [
          { target: quote.input.address, data: ERC20.encodeFunctionData('balanceOf', [sender]) },
          { target: quote.input.address, data: ERC20.encodeFunctionData('allowance', [sender, tx.to]) },
        ])
      ).map(decodeUintResult);
      if ((balance ?? 0n) < amount)
        throw badRequest(
          `transfer-from failed: insufficient balance: the sender holds ${balance ?? 0n} of the ${amount} ${quote.input.symbol} the order spends`,
        );
      if (!isPermit && (allowance ?? 0n) < amount) {
        throw badRequest(
          `transfer-from failed: insufficient approval: the sender allows the Router (${tx.to}) ${allowance ?? 0n} of the ${amount} ${quote.input.symbol} it spends; send the approve transaction from GET /v2/approval first, or pass permitSignature`,
        );
      }
    }
    const outcome = await simulateTx(client, { from: sender, to: tx.to, data: tx.data, value: tx.value });
    if (!outcome.ok) {
      const error = outcome.error;
      if (error?.name === 'InsufficientOutput') return { ok: false, received: error.args[0] as bigint, minimum: error.args[1] as bigint };
      if (error?.name === 'PermitFailed')
        throw badRequest(
          'transfer-from failed: the permit was rejected: permitSignature must sign a permit of exactly inputAmount to the Router with permitDeadline and the current nonce (take it from GET /v2/approval)',
        );
      if (error && (TRANSFER_FAILURES.has(error.name) || TRANSFER_FAILURES.has(error.inner?.name ?? '')))
        throw badRequest(`transfer-from failed: ${outcome.message}`);
      throw badRequest(`execution reverted: ${outcome.message}; re-quote, or trade a different amount`);
    }
    const gasLimit = bufferedGas(outcome.gas);
    const gasCost = gasLimit * quote.gasPrice;
    if (nativeBalance < tx.value + gasCost) {
      const message = `insufficient funds: the sender holds ${nativeBalance} wei, the order needs ${tx.value} plus about ${gasCost} for gas; reserve gas when sending the maximum`;
      // An ERC-20 input can still go as a signed order, whose gas the relayer pays: the caller decides.
      if (native) throw badRequest(message);
      return { ok: true, output: outcome.output, gasLimit, gasShortfall: message };
    }
    return { ok: true, output: outcome.output, gasLimit };
  }
}
