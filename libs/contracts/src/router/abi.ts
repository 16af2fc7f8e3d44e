import { AbiCoder, Interface, keccak256 } from 'ethers';
import { loadArtifact } from '../local-artifacts';
import type { ExecutorCall } from './types';

const CALL_INPUT_TUPLE = 'tuple(address token,uint16 bps,uint256 amount,uint32 offset,bool approve)';
/** ABI type of `Call[]`, the route the executor runs. */
export const CALLS_ABI_TYPE = `tuple(address target,uint256 value,bytes data,${CALL_INPUT_TUPLE}[] inputs)[]`;

let routerIface: Interface | undefined;
let executorIface: Interface | undefined;

/** ABI of the Router, from the compiled artifact (compiled on first use when sources changed). */
export function routerInterface(): Interface {
  routerIface ??= new Interface(loadArtifact('Router').abi);
  return routerIface;
}

export function executorInterface(): Interface {
  executorIface ??= new Interface(loadArtifact('Executor').abi);
  return executorIface;
}

/** `routeHash` of the public interface and of the OrderExecuted event: keccak256(abi.encode(calls)). */
export function routeHash(calls: readonly ExecutorCall[]): string {
  return keccak256(AbiCoder.defaultAbiCoder().encode([CALLS_ABI_TYPE], [calls]));
}
