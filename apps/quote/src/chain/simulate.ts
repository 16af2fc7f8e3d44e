/**
 * Runs an order transaction with eth_call (its return value is the recipient's output) and
 * eth_estimateGas, optionally over state overrides. A revert is decoded through the Router's,
 * the Executor's and the common token errors.
 */
import { AbiCoder } from 'ethers';
import { JsonRpcError, type JsonRpcClient, toQuantity } from '@tokensvc/chain';
import { type DecodedRouterError, decodeRouterError } from '@tokensvc/contracts';
import type { StateOverride } from './state-overrides';

export interface TxRequest {
  from: string;
  to: string;
  data: string;
  value: bigint;
}

export type SimulationOutcome = { ok: true; output: bigint; gas: bigint } | { ok: false; message: string; error?: DecodedRouterError };

function describe(error: DecodedRouterError | undefined): string {
  if (!error) return 'unknown reason';
  const inner = error.inner ? `: ${describe(error.inner)}` : '';
  const args = error.name === 'CallFailed' ? `call #${String(error.args[0])}` : error.args.map(String).join(', ');
  return `${error.name}(${args})${inner}`;
}

function revertOf(e: unknown): SimulationOutcome {
  if (!(e instanceof JsonRpcError)) throw e;
  const data = typeof e.data === 'string' ? e.data : undefined;
  const error = data && data.length > 2 ? decodeRouterError(data) : undefined;
  return { ok: false, message: error ? describe(error) : e.rpcMessage, error };
}

export async function simulateTx(client: JsonRpcClient, tx: TxRequest, overrides?: StateOverride): Promise<SimulationOutcome> {
  const call = { from: tx.from, to: tx.to, data: tx.data, value: toQuantity(tx.value) };
  const extra = overrides ? [overrides] : [];
  let output: bigint;
  try {
    const ret = await client.call<string>('eth_call', [call, 'latest', ...extra]);
    output = AbiCoder.defaultAbiCoder().decode(['uint256'], ret)[0] as bigint;
  } catch (e) {
    return revertOf(e);
  }
  try {
    const gas = BigInt(await client.call<string>('eth_estimateGas', [call, 'latest', ...extra]));
    return { ok: true, output, gas };
  } catch (e) {
    return revertOf(e);
  }
}
