/**
 * The project's order Router (libs/contracts/solidity/router) on each devnet network. Its
 * constructor creates the Executor, whose address follows from the Router's own first CREATE
 * (contract nonces start at 1, EIP-161). Deployed after every protocol so the addresses of the
 * other contracts do not depend on it.
 */
import { Interface, getCreateAddress } from 'ethers';
import { loadArtifact } from '@tokensvc/contracts';
import { readOne } from '../chain/reader';
import { type BuildContext, mineNext } from './context';

export interface RouterContracts {
  /** the contract users approve and order transactions call */
  router: string;
  /** runs the routes; created by the Router, never approved by users */
  executor: string;
}

/** The Router takes no constructor argument (it names no WETH: the routes wrap and unwrap native). */
export async function deployRouterContracts(ctx: BuildContext): Promise<RouterContracts> {
  const router = ctx.writer.deploy(ctx.deployer, loadArtifact('Router'), [], 'Router', 8_000_000n);
  await mineNext(ctx);
  const executor = getCreateAddress({ from: router, nonce: 1 });
  const deployed = await readOne(ctx.rpc, { to: router, iface: new Interface(loadArtifact('Router').abi), fn: 'executor' });
  if (String(deployed[0]).toLowerCase() !== executor.toLowerCase())
    throw new Error(`Router ${router} reports executor ${String(deployed[0])}, expected ${executor}`);
  return { router, executor };
}
