/** Everything the seeder knows about one network while it writes that network's history. */
import { MaxUint256 } from 'ethers';
import { type DevAccount, deriveAccounts, deriveAccount } from '../accounts';
import { ABI } from '../chain/abis';
import { SIMULATION, type TokenSpec, WETH_SPEC, tokenSpecs } from '../config';
import { type PlatformFamily, ZERO_ADDRESS } from '@tokensvc/domain';
import type { DevnetChain, DevnetPlatform, DevnetWorld } from '@tokensvc/protocols/devnet';
import { type BuildContext, devnetChain } from '../deploy/context';
import type { NetworkDeployment } from '../deploy/network';
import type { ManifestToken } from '../manifest';
import { type Rng, createRng } from '../math/prng';
import { Portfolio } from './portfolio';
import type { PriceBook } from './prices';

export interface Actors {
  traders: DevAccount[];
  liquidityProviders: DevAccount[];
  arbitrageurs: DevAccount[];
  relayer: DevAccount;
  /**
   * A large holder the seeder funds with every token (it was the inventory of the devnet bridge's
   * filler, which Across's relayer replaced): kept so the seeded history, its balances and holder
   * lists stay what they were.
   */
  filler: DevAccount;
  /** receive transfers only; they make token holder lists longer than the set of traders */
  recipients: DevAccount[];
}

export function deriveActors(seed: string): Actors {
  return {
    traders: deriveAccounts(seed, 'trader', SIMULATION.traders),
    liquidityProviders: deriveAccounts(seed, 'lp', SIMULATION.liquidityProviders),
    arbitrageurs: deriveAccounts(seed, 'arbitrageur', SIMULATION.arbitrageurs),
    relayer: deriveAccount(seed, 'relayer', 0),
    filler: deriveAccount(seed, 'filler', 0),
    recipients: deriveAccounts(seed, 'recipient', 30),
  };
}

/** The world being seeded; also the protocol modules' view of it (their devnet facets' port). */
export class World implements DevnetWorld {
  readonly portfolio = new Portfolio();
  readonly rng: Rng;
  readonly actors: Actors;
  readonly chain: DevnetChain;
  readonly accounts: DevnetWorld['accounts'];
  private readonly approved = new Set<string>();
  private readonly bySymbol: Map<string, ManifestToken>;
  private readonly byAddress: Map<string, ManifestToken>;

  constructor(
    readonly ctx: BuildContext,
    readonly deployment: NetworkDeployment,
    readonly prices: PriceBook,
  ) {
    this.rng = createRng(`${ctx.seed}/${ctx.network}/activity`);
    this.actors = deriveActors(ctx.seed);
    this.chain = devnetChain(ctx);
    this.accounts = {
      liquidityProviders: this.actors.liquidityProviders.map((a) => a.address),
      arbitrageurs: this.actors.arbitrageurs.map((a) => a.address),
    };
    this.bySymbol = new Map(deployment.tokens.map((t) => [t.symbol, t]));
    this.byAddress = new Map(deployment.tokens.map((t) => [t.address.toLowerCase(), t]));
  }

  get tokens(): readonly ManifestToken[] {
    return this.deployment.tokens;
  }

  token(symbol: string): ManifestToken {
    const t = this.bySymbol.get(symbol);
    if (!t) throw new Error(`no token ${symbol}`);
    return t;
  }

  /** A token by address; address(0) is the native coin (a pool currency of Uniswap V4), priced and decimalled as WETH. */
  tokenAt(address: string): ManifestToken {
    if (address === ZERO_ADDRESS) return { ...this.token('WETH'), address: ZERO_ADDRESS };
    const t = this.byAddress.get(address.toLowerCase());
    if (!t) throw new Error(`no token at ${address}`);
    return t;
  }

  platforms<F extends PlatformFamily>(family: F): Array<DevnetPlatform<F>> {
    return this.deployment.platforms.filter((p) => p.family === family) as DevnetPlatform[] as Array<DevnetPlatform<F>>;
  }

  platform<F extends PlatformFamily>(family: F): DevnetPlatform<F> {
    const p = this.platforms(family)[0];
    if (!p) throw new Error(`no ${family} platform`);
    return p;
  }

  /** USD price of a token at a simulation step. */
  price(symbol: string, step: number): number {
    return this.prices.price(symbol, step);
  }

  /** Queues approve(max) the first time an account uses a spender for a token, as wallets do. */
  approveOnce(owner: string, token: string, spender: string): void {
    const key = `${owner}:${token}:${spender}`.toLowerCase();
    if (this.approved.has(key)) return;
    this.approved.add(key);
    this.ctx.writer.call(owner, token, ABI.erc20(), 'approve', [spender, MaxUint256], { gas: 100_000n, label: 'approve' });
  }
}

/** Specs of all tokens including WETH, for the price book. */
export function allTokenSpecs(network: BuildContext['network']): TokenSpec[] {
  return [WETH_SPEC, ...tokenSpecs(network)];
}
