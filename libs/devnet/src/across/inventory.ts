/**
 * Inventory of the devnet's Across relayer, given on a running devnet: gas money by anvil_setBalance,
 * every test token minted by its owner (the network's deployer, an unlocked anvil account, through
 * TestERC20.mintMany as the seeder does) and WETH wrapped by the relayer itself.
 */
import { JsonRpcSigner, Wallet, getAddress, parseEther, parseUnits, toBeHex } from 'ethers';
import type { Network } from '@tokensvc/domain';
import { DEFAULT_SEED, type DevAccount, deriveAccount } from '../accounts';
import { ABI } from '../chain/abis';
import type { DevnetManifest } from '../manifest';
import { devnetProvider } from './spoke';

/** The devnet's Across relayer account (same key on every network). */
export function acrossRelayerAccount(seed = DEFAULT_SEED): DevAccount {
  return deriveAccount(seed, 'across-relayer', 0);
}

export interface FundRelayerOptions {
  /** a devnet manifest, or the mainnet-shaped profile's (its networks carry the same fields) */
  manifest: Pick<DevnetManifest, 'networks'>;
  rpcUrls: Partial<Record<Network, string>>;
  relayerKey: string;
  /** USD worth of each token (default 1,000,000); ETH for gas comes on top */
  usdPerToken?: number;
}

/**
 * Tops the relayer up to `usdPerToken` of every token (and gas money): a token it already holds at
 * least half of is left alone, so a restart of a funded relayer (npm start on a kept chain) sends
 * no transaction and mines no block.
 */
export async function fundAcrossRelayer(o: FundRelayerOptions): Promise<void> {
  const usd = o.usdPerToken ?? 1_000_000;
  for (const net of o.manifest.networks) {
    const url = o.rpcUrls[net.network];
    if (!url) continue;
    const provider = devnetProvider(url);
    try {
      const relayer = new Wallet(o.relayerKey, provider);
      const units = (t: { priceUsd: number; decimals: number }) =>
        parseUnits((usd / t.priceUsd).toFixed(Math.min(6, t.decimals)), t.decimals);
      const balanceOf = async (token: string): Promise<bigint> =>
        BigInt(await provider.call({ to: token, data: ABI.erc20().encodeFunctionData('balanceOf', [relayer.address]) }));
      /** what to add to reach `target`, or 0 when at least half of it is there */
      const shortOf = (have: bigint, target: bigint): bigint => (have * 2n >= target ? 0n : target - have);
      const weth = net.tokens.find((t) => getAddress(t.address) === getAddress(net.weth));
      const wethToWrap = weth ? shortOf(await balanceOf(net.weth), units(weth)) : 0n;
      const gas = parseEther('1000');
      if ((await provider.getBalance(relayer.address)) < gas / 2n + wethToWrap)
        await provider.send('anvil_setBalance', [relayer.address, toBeHex(wethToWrap + gas)]);
      const owner = new JsonRpcSigner(provider, net.deployer);
      for (const t of net.tokens) {
        if (getAddress(t.address) === getAddress(net.weth)) continue;
        const add = shortOf(await balanceOf(t.address), units(t));
        if (add > 0n)
          await (
            await owner.sendTransaction({ to: t.address, data: ABI.erc20().encodeFunctionData('mintMany', [[relayer.address], [add]]) })
          ).wait();
      }
      if (wethToWrap > 0n)
        await (
          await relayer.sendTransaction({ to: net.weth, data: ABI.weth().encodeFunctionData('deposit', []), value: wethToWrap })
        ).wait();
    } finally {
      provider.destroy();
    }
  }
}
