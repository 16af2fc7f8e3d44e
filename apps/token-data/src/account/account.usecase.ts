import { Inject, Injectable, Optional } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ChainProviders } from '@tokensvc/chain';
import { ErrorCode, type AccountReply, type AccountRequest, type Balance, type BlockLabel, type Token } from '@tokensvc/messages';
import { isAddress, isNetwork, nativeTokenKey, toUnits, type Network } from '@tokensvc/domain';
import { ServiceError } from '@tokensvc/transport';
import { HELD_AS_OF_FINALIZED_SQL } from '../finality/balances-as-of';
import { asOfBlockSql, finalityOf, labelColumnsSql, toLabel, type Finality, type LabelColumns } from '../finality/finality';
import { tokensAsOfFinalizedSql } from '../finality/tokens-as-of';
import { TokenRecordCache, TOKEN_VERSION, type TokenRecord, type VersionedTokenRow } from '../read-model/token-records';
import { IMAGE_BASE_URL } from '../read-model/image-base';
import { LIVE_BALANCE_FAMILIES } from '@tokensvc/protocols';
import { TOKEN_COLUMNS, toToken, type TokenRow } from '../read-model/token-row';
import { TokensRepository } from '../read-model/tokens.repository';

/**
 * Families whose `balanceOf` grows without Transfer events (aTokens accrue interest through the
 * liquidity index), so the Transfer-derived balance lags: these are read live with eth_call.
 */
export { LIVE_BALANCE_FAMILIES } from '@tokensvc/protocols';

/** calldata of ERC-20 balanceOf(owner) */
export function balanceOfCall(owner: string): string {
  return `0x70a08231${owner.toLowerCase().replace(/^0x/, '').padStart(64, '0')}`;
}

/**
 * Built Token records kept across requests (~3.8 kB of heap each, so ~75 MB when full): a popular
 * token is held by many accounts, and reading and building its record (pg parsing of ~35 columns,
 * ~23 number-to-string conversions) was most of a request's cost. Only the records are kept;
 * balances are read on every request. The reply cache's account replies share these records too,
 * and so does the JSON of each record per view (response-body.ts: ~1.6 kB paid, ~1.2 kB free, in
 * Buffers outside the V8 heap, built when a body first needs it and dropped with the record).
 */
export const ACCOUNT_RECORDS = { maxEntries: 20_000, maxAgeMs: 10 * 60_000 } as const;

/**
 * The owner's non-zero indexed balances with the key and row version of each token: the token
 * columns themselves are read only for the records not built for that version yet.
 */
const HELD_SQL = `SELECT t.key, ${TOKEN_VERSION}, b.balance::text AS raw_balance FROM balances b
         JOIN tokens t ON t.network = b.network AND t.address = b.token
        WHERE b.holder = $1 AND b.network = ANY($2::text[]) AND b.balance > 0
        ORDER BY b.network, t.key LIMIT $3`;
/**
 * At most this many indexed balances per owner (issue 16: no unbounded read; an address
 * airdropped thousands of spam tokens would otherwise make one request read and price them all).
 */
/**
 * The networks an account request reads: those named, each once (the gateway passes a list as
 * given, so `networks=ethereum,ethereum` arrives with a repeat, which must not read or answer a
 * network twice), or every served network when none is named.
 */
export function requestedNetworks(named: readonly string[], served: readonly Network[]): Network[] {
  return named.length > 0 ? [...new Set(named.filter(isNetwork))] : [...served];
}

export const MAX_ACCOUNT_BALANCES = 1_000;
/**
 * The tokens of the networks asked whose history is partial (tokens.history_from_block: indexed
 * from a start block after their creation): their Transfer-derived balances are net flows since
 * that block, so the owner's balance of each is read live (balanceOf at the answer's block), held
 * by the index or not. Bounded by the scope (listed tokens, their pools' LP tokens, aTokens, vaults).
 */
const PARTIAL_SQL = `SELECT t.key, ${TOKEN_VERSION}, '0' AS raw_balance FROM tokens t
        WHERE t.network = ANY($1::text[]) AND t.history_from_block IS NOT NULL AND t.family <> 'native' ORDER BY t.key LIMIT $2`;
export const MAX_PARTIAL_TOKENS = 500;
const RECORDS_SQL = `SELECT ${TOKEN_COLUMNS}, ${TOKEN_VERSION} FROM tokens t WHERE t.key = ANY($1::text[])`;
/** the token records as of each network's finalized block (not cached: they change with it) */
const RECORDS_AS_OF_FINALIZED_SQL = `SELECT ${TOKEN_COLUMNS} FROM ${tokensAsOfFinalizedSql('t.key = ANY($1::text[])')} t`;
/** each network's answer block (finality/finality.ts) */
const positionsSql = (finality: Finality): string =>
  `SELECT c.network, ${labelColumnsSql(asOfBlockSql(finality, true))} FROM index_cursors c WHERE c.network = ANY($1::text[])`;

interface HeldRow {
  key: string;
  version: string;
  raw_balance: string;
}

/** the block a node read is made at: the answer's block, or the node's latest for a network without a cursor */
const blockTag = (at: BlockLabel | undefined): string => (at && Number(at.number) > 0 ? `0x${Number(at.number).toString(16)}` : 'latest');

function toBalance(token: Token, raw: bigint): Balance {
  const balance = toUnits(raw, token.decimals);
  return { token, balance, balanceUsd: balance * token.price, rawBalance: raw.toString() };
}

/**
 * GET /v2/account: non-zero balances of an address. ERC-20 balances come from the indexer's
 * Transfer-derived `balances` (one indexed query across networks, fresh on every request), each with
 * its token's record built once per row version (TokenRecordCache); native balances are not in any
 * event log, so they are read live with eth_getBalance, one call per network, in parallel with the
 * database reads. Every balance is labelled with its network's block (the balances' block, or
 * with finality=finalized the finalized one: balances from finality/balances-as-of.ts, token
 * records from finality/tokens-as-of.ts); the node's balances (native, aTokens, and every token of
 * the scope whose history is partial: PARTIAL_SQL) are read at that block. The labels and the balances come from one REPEATABLE READ snapshot.
 */
@Injectable()
export class AccountUseCase {
  private readonly tokens: TokensRepository;
  private readonly records: TokenRecordCache;
  constructor(
    private readonly ds: DataSource,
    private readonly chains: ChainProviders,
    @Optional() @Inject(IMAGE_BASE_URL) private readonly imageBase = '',
  ) {
    this.tokens = new TokensRepository(ds);
    this.records = new TokenRecordCache(ACCOUNT_RECORDS.maxEntries, ACCOUNT_RECORDS.maxAgeMs, Date.now, imageBase);
  }

  async execute(req: AccountRequest): Promise<AccountReply> {
    if (!isAddress(req.owner))
      throw new ServiceError(ErrorCode.ERROR_CODE_BAD_REQUEST, 'owner must be an address: 0x followed by 40 hex characters');
    const owner = req.owner.toLowerCase();
    const finality = finalityOf(req.finality);
    const served = [...this.chains.rpc.keys()];
    const networks = requestedNetworks(req.networks, served);
    const { held, blocks, nativesRead, finalRecords } = await this.ds.transaction('REPEATABLE READ', async (m) => {
      const positions = (await m.query(positionsSql(finality), [networks])) as Array<LabelColumns & { network: string }>;
      const labels = new Map(positions.map((p) => [p.network, toLabel(p.network, p)]));
      // the node round trips of native balances overlap the database reads instead of following them
      const natives = Promise.all(
        networks.filter((n) => this.chains.rpc.has(n)).map((n) => this.nativeBalance(n, owner, labels.get(n), finality)),
      );
      natives.catch(() => undefined); // awaited below; not an unhandled rejection if a read fails first
      const indexed: HeldRow[] = await m.query(finality === 'finalized' ? HELD_AS_OF_FINALIZED_SQL : HELD_SQL, [
        owner,
        networks,
        MAX_ACCOUNT_BALANCES,
      ]);
      const partial: HeldRow[] = await m.query(PARTIAL_SQL, [networks.filter((n) => this.chains.rpc.has(n)), MAX_PARTIAL_TOKENS]);
      const keys = new Set(indexed.map((r) => r.key));
      const rows = [...indexed, ...partial.filter((r) => !keys.has(r.key))];
      const asOf =
        finality === 'finalized' ? ((await m.query(RECORDS_AS_OF_FINALIZED_SQL, [rows.map((r) => r.key)])) as TokenRow[]) : undefined;
      return { held: rows, blocks: labels, nativesRead: natives, finalRecords: asOf };
    });
    const records = finalRecords
      ? new Map(finalRecords.map((r) => [r.key, { token: toToken(r, this.imageBase), family: r.family } satisfies TokenRecord]))
      : await this.recordsOf(held);
    // a token whose row went away between the two statements is left out, as the join would have
    const rows = held.flatMap((h) => {
      const record = records.get(h.key);
      return record ? [{ record, raw: h.raw_balance }] : [];
    });
    const raws = await Promise.all(
      rows.map(({ record, raw }) =>
        LIVE_BALANCE_FAMILIES.has(record.family) || record.token.historyFromBlock !== undefined
          ? this.liveBalanceOf(record.token.network as Network, record.token.address, owner, blocks.get(record.token.network))
          : BigInt(raw),
      ),
    );
    const balances = rows.flatMap((r, i) => (raws[i]! > 0n ? [toBalance(r.record.token, raws[i]!)] : []));
    for (const b of await nativesRead) if (b) balances.push(b);
    balances.sort((a, b) => b.balanceUsd - a.balanceUsd);
    const labelled = new Set(balances.map((b) => b.token?.network));
    return { balances, totalQueried: networks.length, blocks: [...blocks.values()].filter((l) => labelled.has(l.network)) };
  }

  /** The records of the held tokens at the versions just read: built ones as they are, the rest read and built in one statement. */
  private async recordsOf(held: readonly HeldRow[]): Promise<Map<string, TokenRecord>> {
    const out = new Map<string, TokenRecord>();
    const missing: string[] = [];
    for (const h of held) {
      const record = this.records.get(h.key, h.version);
      if (record) out.set(h.key, record);
      else missing.push(h.key);
    }
    if (missing.length === 0) return out;
    const rows: VersionedTokenRow[] = await this.ds.query(RECORDS_SQL, [missing]);
    for (const row of rows) out.set(row.key, this.records.put(row));
    return out;
  }

  /** balanceOf(owner) at the answer's block (the node's latest for a network not indexed): for tokens whose balance grows without a Transfer event */
  private async liveBalanceOf(network: Network, token: string, owner: string, at: BlockLabel | undefined): Promise<bigint> {
    const rpc = this.chains.rpc.get(network);
    if (!rpc) throw new ServiceError(ErrorCode.ERROR_CODE_UNAVAILABLE, `${network}: no node configured for a live balance`);
    try {
      return BigInt(await rpc.call<string>('eth_call', [{ to: token, data: balanceOfCall(owner) }, blockTag(at)]));
    } catch (e) {
      throw new ServiceError(
        ErrorCode.ERROR_CODE_UNAVAILABLE,
        `${network}: the node did not answer balanceOf (${(e as Error).message.slice(0, 120)}); retry shortly`,
      );
    }
  }

  private async nativeBalance(
    network: Network,
    owner: string,
    at: BlockLabel | undefined,
    finality: Finality,
  ): Promise<Balance | undefined> {
    const rpc = this.chains.rpc.get(network)!;
    let raw: bigint;
    try {
      raw = BigInt(await rpc.call<string>('eth_getBalance', [owner, blockTag(at)]));
    } catch (e) {
      throw new ServiceError(
        ErrorCode.ERROR_CODE_UNAVAILABLE,
        `${network}: the node did not answer eth_getBalance (${(e as Error).message.slice(0, 120)}); retry shortly`,
      );
    }
    if (raw === 0n) return undefined;
    const token =
      finality === 'finalized'
        ? ((await this.ds.query(RECORDS_AS_OF_FINALIZED_SQL, [[nativeTokenKey(network)]])) as TokenRow[])[0]
        : await this.tokens.byKey(nativeTokenKey(network));
    return token ? toBalance(toToken(token, this.imageBase), raw) : undefined;
  }
}
