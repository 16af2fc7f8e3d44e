import { Controller, Logger } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { RPC } from '@tokensvc/messages';
import { handleRpc } from '@tokensvc/transport';
import { AccountUseCase } from '../account/account.usecase';
import { TokenMetricsUseCase } from '../activity/metrics.usecase';
import { TokenTransactionsUseCase } from '../activity/transactions.usecase';
import { accountKey, historyKey, listTokensKey } from '../cache/cache-keys';
import { ReplyCache } from '../cache/reply-cache';
import { TokenHistoryUseCase } from '../history/history.usecase';
import { TokenHoldersUseCase } from '../holders/holders.usecase';
import { ListTokensUseCase } from './list-tokens.usecase';

/**
 * NATS handlers of the token data endpoints; each is a thin adapter over one use case. The hot
 * lists (tokens, history, account) are answered from the per-block reply cache.
 */
@Controller()
export class TokensController {
  private readonly logger = new Logger(TokensController.name);
  private readonly onInternal = (e: unknown): void => this.logger.error(e);

  constructor(
    private readonly list: ListTokensUseCase,
    private readonly account: AccountUseCase,
    private readonly history: TokenHistoryUseCase,
    private readonly transactions: TokenTransactionsUseCase,
    private readonly metrics: TokenMetricsUseCase,
    private readonly holders: TokenHoldersUseCase,
    private readonly cache: ReplyCache,
  ) {}

  @MessagePattern(RPC.listTokens.subject)
  listTokens(@Payload() raw: unknown): Promise<unknown> {
    return handleRpc(RPC.listTokens, raw, (req) => this.cache.get('list', listTokensKey(req), () => this.list.execute(req)), this.onInternal);
  }

  @MessagePattern(RPC.account.subject)
  getAccount(@Payload() raw: unknown): Promise<unknown> {
    return handleRpc(RPC.account, raw, (req) => this.cache.get('account', accountKey(req), () => this.account.execute(req)), this.onInternal);
  }

  @MessagePattern(RPC.tokenHistory.subject)
  getHistory(@Payload() raw: unknown): Promise<unknown> {
    return handleRpc(RPC.tokenHistory, raw, (req) => this.cache.get('history', historyKey(req), () => this.history.execute(req)), this.onInternal);
  }

  @MessagePattern(RPC.tokenTransactions.subject)
  getTransactions(@Payload() raw: unknown): Promise<unknown> {
    return handleRpc(RPC.tokenTransactions, raw, (req) => this.transactions.execute(req), this.onInternal);
  }

  @MessagePattern(RPC.tokenMetrics.subject)
  getMetrics(@Payload() raw: unknown): Promise<unknown> {
    return handleRpc(RPC.tokenMetrics, raw, (req) => this.metrics.execute(req), this.onInternal);
  }

  @MessagePattern(RPC.tokenHolders.subject)
  getHolders(@Payload() raw: unknown): Promise<unknown> {
    return handleRpc(RPC.tokenHolders, raw, (req) => this.holders.execute(req), this.onInternal);
  }
}
