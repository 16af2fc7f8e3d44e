import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ChainProviders } from '@tokensvc/chain';
import { ErrorCode, type AccountReply, type AccountRequest, type Balance } from '@tokensvc/messages';
import { isAddress, isNetwork, nativeTokenKey, toUnits, type Network } from '@tokensvc/domain';
import { ServiceError } from '@tokensvc/transport';
import { TOKEN_COLUMNS, toToken, type TokenRow } from '../tokens/token-row';
import { TokensRepository } from '../tokens/tokens.repository';

/**
 * Families whose `balanceOf` grows without Transfer events (aTokens accrue interest through the
 * liquidity index), so the Transfer-derived balance lags: these are read live with eth_call.
 */
export const LIVE_BALANCE_FAMILIES: ReadonlySet<string> = new Set(['aave-v3']);

/** calldata of ERC-20 balanceOf(owner) */
export function balanceOfCall(owner: string): string {
  return `0x70a08231${owner.toLowerCase().replace(/^0x/, '').padStart(64, '0')}`;
}

function toBalance(row: TokenRow, raw: bigint): Balance {
  const balance = toUnits(raw, row.decimals);
  return { token: toToken(row), balance, balanceUsd: balance * row.price, rawBalance: raw.toString() };
}

/**
 * GET /v2/account: non-zero balances of an address. ERC-20 balances come from the indexer's
 * Transfer-derived `balances` (one indexed query across networks); native balances are not in any
 * event log, so they are read live with eth_getBalance, one call per network, in parallel.
 */
@Injectable()
export class AccountUseCase {
  private readonly tokens: TokensRepository;
  constructor(private readonly ds: DataSource, private readonly chains: ChainProviders) {
    this.tokens = new TokensRepository(ds);
  }

  async execute(req: AccountRequest): Promise<AccountReply> {
    if (!isAddress(req.owner)) throw new ServiceError(ErrorCode.ERROR_CODE_BAD_REQUEST, 'owner must be an address: 0x followed by 40 hex characters');
    const owner = req.owner.toLowerCase();
    const served = [...this.chains.byNetwork.keys()];
    const networks: Network[] = req.networks.length > 0 ? req.networks.filter(isNetwork) : served;
    const rows: Array<TokenRow & { raw_balance: string }> = await this.ds.query(
      `SELECT ${TOKEN_COLUMNS}, b.balance::text AS raw_balance FROM balances b
         JOIN tokens t ON t.network = b.network AND t.address = b.token
        WHERE b.holder = $1 AND b.network = ANY($2::text[]) AND b.balance > 0
        ORDER BY b.network, t.key`,
      [owner, networks],
    );
    const raws = await Promise.all(rows.map((r) => (LIVE_BALANCE_FAMILIES.has(r.family) ? this.liveBalanceOf(r.network as Network, r.address, owner) : BigInt(r.raw_balance))));
    const balances = rows.flatMap((r, i) => (raws[i]! > 0n ? [toBalance(r, raws[i]!)] : []));
    const natives = await Promise.all(networks.filter((n) => this.chains.byNetwork.has(n)).map((n) => this.nativeBalance(n, owner)));
    for (const b of natives) if (b) balances.push(b);
    balances.sort((a, b) => b.balanceUsd - a.balanceUsd);
    return { balances, totalQueried: networks.length };
  }

  /** balanceOf(owner) at the latest block: for tokens whose balance grows without a Transfer event */
  private async liveBalanceOf(network: Network, token: string, owner: string): Promise<bigint> {
    const provider = this.chains.byNetwork.get(network);
    if (!provider) throw new ServiceError(ErrorCode.ERROR_CODE_UNAVAILABLE, `${network}: no node configured for a live balance`);
    try {
      return BigInt(await provider.call({ to: token, data: balanceOfCall(owner) }));
    } catch (e) {
      throw new ServiceError(ErrorCode.ERROR_CODE_UNAVAILABLE, `${network}: the node did not answer balanceOf (${(e as Error).message.slice(0, 120)}); retry shortly`);
    }
  }

  private async nativeBalance(network: Network, owner: string): Promise<Balance | undefined> {
    const provider = this.chains.byNetwork.get(network)!;
    let raw: bigint;
    try {
      raw = await provider.getBalance(owner);
    } catch (e) {
      throw new ServiceError(ErrorCode.ERROR_CODE_UNAVAILABLE, `${network}: the node did not answer eth_getBalance (${(e as Error).message.slice(0, 120)}); retry shortly`);
    }
    if (raw === 0n) return undefined;
    const token = await this.tokens.byKey(nativeTokenKey(network));
    return token ? toBalance(token, raw) : undefined;
  }
}
