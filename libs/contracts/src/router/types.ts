/** TypeScript shapes of the Router/Executor structs (solidity/router/interfaces). Amounts are bigint. */

/** address(0) stands for the native token in orders (the public interface uses it the same way). */
export const NATIVE_TOKEN = '0x0000000000000000000000000000000000000000';
/** CallInput.offset meaning "do not write the amount into the call data". */
export const NO_OFFSET = 0xffffffff;
/** CallInput.bps of "all of the executor's balance". */
export const ALL_BPS = 10_000;
/** Router.MAX_FEE_BPS: the partner fee is at most 1 % of the input. */
export const MAX_FEE_BPS = 100;

/** The fields every order struct has after its inputs (the Solidity structs each repeat them): the output, who receives it, the partner fee. */
export interface RouterOrderOutput {
  outputToken: string;
  minOutputAmount: bigint;
  recipient: string;
  partner: string;
  feeBps: number;
}

export interface RouterOrder extends RouterOrderOutput {
  inputToken: string;
  inputAmount: bigint;
  deadline: bigint;
}

/** Router.MAX_INPUTS: a multi-input order takes at most 10 inputs. */
export const MAX_ORDER_INPUTS = 10;

/** Several inputs of one network into one output (Router.executeMulti). */
export interface MultiRouterOrder extends RouterOrderOutput {
  inputTokens: string[];
  inputAmounts: bigint[];
  deadline: bigint;
}

export interface SignedRouterOrder extends RouterOrderOutput {
  sender: string;
  inputToken: string;
  inputAmount: bigint;
  /** input-token units paid to whoever submits the order (the relayer's gas) */
  relayerFee: bigint;
  /** the only account allowed to submit the order (the service's relayer); the zero address = anyone */
  submitter: string;
  /** `routeHash(calls)` of the only calls the order may run: the signature covers the route too */
  routeHash: string;
  nonce: bigint;
  deadline: bigint;
}

/** Permit of one input of a multi-input order; `v: 0` = no permit (the input is approved). */
export interface PermitParams {
  value: bigint;
  deadline: bigint;
  v: number;
  r: string;
  s: string;
}

/** An amount a call spends from the executor: fixed, or `bps` of its balance when the call runs. */
export interface CallInput {
  token: string;
  /** 1..10000 share of the executor's balance; 0 = use `amount` */
  bps: number;
  amount: bigint;
  /** byte offset of the 32-byte amount word in `data`, or NO_OFFSET */
  offset: number;
  /** approve the call target for the amount during this call only */
  approve: boolean;
}

export interface ExecutorCall {
  target: string;
  value: bigint;
  data: string;
  inputs: CallInput[];
}
