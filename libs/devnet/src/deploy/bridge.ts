/**
 * The devnet bridge (libs/contracts/solidity/bridge) on each network: a BridgeEscrow (origin side)
 * and a BridgeSettler (destination side), so every network can be both ends of a cross-chain
 * order. The escrow's attester is the filler account (`accounts.filler` in the manifest): on the
 * devnet the provider's filler confirms its own fills and is repaid by doing so. Real bridges
 * replace that trust in one key with proofs (challenge windows, light clients, messaging layers).
 * Deployed after the Router so the addresses of everything before it do not move.
 */
import { Interface, getAddress } from 'ethers';
import { loadArtifact } from '@tokensvc/contracts';
import { readOne } from '../chain/reader';
import { type BuildContext, mineNext } from './context';

export interface BridgeContracts {
  /** origin side: holds deposits until settled to a filler or refunded */
  bridgeEscrow: string;
  /** destination side: fillers pay recipients through it */
  bridgeSettler: string;
}

export async function deployBridgeContracts(ctx: BuildContext, attester: string): Promise<BridgeContracts> {
  const escrowArtifact = loadArtifact('BridgeEscrow');
  const bridgeEscrow = ctx.writer.deploy(ctx.deployer, escrowArtifact, [getAddress(attester)], 'BridgeEscrow', 3_000_000n);
  const bridgeSettler = ctx.writer.deploy(ctx.deployer, loadArtifact('BridgeSettler'), [], 'BridgeSettler', 2_000_000n);
  await mineNext(ctx);
  const [onChain] = await readOne(ctx.rpc, { to: bridgeEscrow, iface: new Interface(escrowArtifact.abi), fn: 'attester' });
  if (String(onChain).toLowerCase() !== attester.toLowerCase()) throw new Error(`BridgeEscrow ${bridgeEscrow} reports attester ${String(onChain)}, expected ${attester}`);
  return { bridgeEscrow, bridgeSettler };
}
