/**
 * Across on the mainnet-shaped profile: the network's own SpokePool (Ethereum_SpokePool,
 * Arbitrum_SpokePool, OP_SpokePool on base) behind the package's ERC1967Proxy, initialised as the
 * ordinary devnet does it (`acrossSpokePoolPlan` of deploy/across.ts), at the registry's real
 * SpokePool address, and the MulticallHandler at its real address; the wrapped native token is the
 * network's real one (the registry's `wrappedNative`, placed with the tokens).
 *
 * The registry reads both addresses from Across's deployment book (`@across-protocol/contracts`
 * `dist/broadcast/deployed-addresses.json`); their creators and nonces are not known here, so both
 * are deployed at scratch addresses and copied (`set-code`). The implementation stays at its
 * scratch address (the proxy's ERC-1967 slot points there; the registry does not name it). The
 * cross-domain admin and withdrawal recipient is the real HubPool of the same book (no code on the
 * profile; tooling impersonates it, see across/admin.ts), and on ethereum the pool's ownership is
 * handed to it, as on mainnet.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Interface, getAddress } from 'ethers';
import { type AcrossContracts, acrossPackageDir, acrossSpokePoolPlan, completeAcrossSpokePool, loadAcrossArtifact } from '../deploy/across';
import { type BuildContext, mineNext } from '../deploy/context';
import type { RealBook, SourcedAddress } from './book';
import { type Placement, placeBySetCode } from './place';

/** Where the registry wrote an address down: `registry <field> (<package> <version> <path>)`. */
export function sourceOf(field: string, a: SourcedAddress): string {
  const s = a.source;
  return s
    ? `registry ${field} (${[s.package && s.version ? `${s.package} ${s.version}` : s.package, s.path].filter(Boolean).join(' ')})`
    : `registry ${field}`;
}

const DEPLOYMENT_BOOK = join('dist', 'broadcast', 'deployed-addresses.json');

/** The real HubPool (chain 1) from Across's deployment book, as the registry's SpokePools come from it. */
export function acrossRealHubPool(): { address: string; source: string } {
  const book = JSON.parse(readFileSync(join(acrossPackageDir(), DEPLOYMENT_BOOK), 'utf8')) as {
    chains: Record<string, { contracts: Record<string, { address: string }> }>;
  };
  const address = book.chains['1']?.contracts['HubPool']?.address;
  if (!address) throw new Error(`Across's deployment book (${DEPLOYMENT_BOOK}) has no HubPool on chain 1`);
  const version = (JSON.parse(readFileSync(join(acrossPackageDir(), 'package.json'), 'utf8')) as { version: string }).version;
  return {
    address: getAddress(address),
    source: `@across-protocol/contracts ${version} ${DEPLOYMENT_BOOK}: chains["1"].contracts.HubPool.address`,
  };
}

export async function placeAcross(ctx: BuildContext, book: RealBook, weth: string, placements: Placement[]): Promise<AcrossContracts> {
  const spokePool = book.across('spokePool');
  const handler = book.across('multicallHandler');
  const registryWeth = book.net.wrappedNative?.address;
  if (!registryWeth || getAddress(registryWeth) !== getAddress(weth))
    throw new Error(`${ctx.network}: the placed WETH ${weth} is not the registry's wrapped native token ${registryWeth}`);
  const hubPool = acrossRealHubPool();
  const plan = acrossSpokePoolPlan(ctx.network, weth, hubPool.address);
  const implementation = ctx.writer.deploy(
    ctx.deployer,
    loadAcrossArtifact(plan.name),
    plan.implementationArgs,
    `${plan.name} implementation`,
    8_000_000n,
  );
  const [pool, multicallHandler] = await placeBySetCode(ctx, [
    {
      what: `across SpokePool (${plan.name} behind ERC1967Proxy)`,
      real: spokePool.address,
      artifact: loadAcrossArtifact('ERC1967Proxy'),
      args: plan.proxyArgs(implementation),
      gas: 1_000_000n,
    },
    { what: 'across MulticallHandler', real: handler.address, artifact: loadAcrossArtifact('MulticallHandler'), args: [], gas: 1_500_000n },
  ]);
  placements.push(
    { ...pool!, source: sourceOf('bridge.spokePool', spokePool) },
    { ...multicallHandler!, source: sourceOf('bridge.multicallHandler', handler) },
  );
  if (plan.name === 'Ethereum_SpokePool') {
    ctx.writer.call(
      ctx.deployer,
      spokePool.address,
      new Interface(loadAcrossArtifact(plan.name).abi),
      'transferOwnership',
      [hubPool.address],
      { gas: 200_000n, label: 'SpokePool ownership to the HubPool' },
    );
    await mineNext(ctx);
  }
  await completeAcrossSpokePool(ctx, spokePool.address, plan);
  ctx.log(
    `Across ${plan.name} at ${spokePool.address}, MulticallHandler at ${handler.address}, HubPool ${hubPool.address} (${hubPool.source})`,
  );
  return { acrossSpokePool: getAddress(spokePool.address), acrossMulticallHandler: getAddress(handler.address) };
}
