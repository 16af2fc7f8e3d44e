import { Controller, Logger } from '@nestjs/common';
import { Ctx, MessagePattern, NatsContext, Payload } from '@nestjs/microservices';
import {
  RPC,
  type AccountReply,
  type AccountRequest,
  type ListTokensReply,
  type ListTokensRequest,
  type TokenHistoryReply,
  type TokenHistoryRequest,
} from '@tokensvc/messages';
import { bodySubjects, bodyViewOf, handleRpc, handleRpcBody, jsonBody } from '@tokensvc/transport';
import { AccountUseCase } from '../account/account.usecase';
import { TokenMetricsUseCase } from '../activity/metrics.usecase';
import { TokenTransactionsUseCase } from '../activity/transactions.usecase';
import { accountKey, historyKey, listTokensKey } from '../cache/cache-keys';
import { ReplyCache } from '../cache/reply-cache';
import { TokenHistoryUseCase } from '../history/history.usecase';
import { TokenHoldersUseCase } from '../holders/holders.usecase';
import { ListTokensUseCase } from './list-tokens.usecase';
import { accountBody, historyBody, listTokensBody } from './response-body';

/**
 * NATS handlers of the token data endpoints; each is a thin adapter over one use case. The hot
 * lists (tokens, history, account) are answered from the per-block reply cache. Those three large
 * replies are answered as the gateway's HTTP body when it asks (response-body.ts).
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

  /**
   * The gateway asks for the HTTP body of its caller's view on the view's subject (bodySubjects,
   * bodyViewOf; only its bus user may publish there); a request on the plain subject gets the reply message.
   */
  @MessagePattern(bodySubjects(RPC.listTokens.subject))
  listTokens(@Payload() raw: unknown, @Ctx() ctx: NatsContext): Promise<unknown> {
    const view = bodyViewOf(ctx);
    const reply = (req: ListTokensRequest): Promise<ListTokensReply> =>
      this.cache.get('list', listTokensKey(req), () => this.list.execute(req));
    if (view) return handleRpcBody(RPC.listTokens, raw, async (req) => jsonBody(listTokensBody(await reply(req), view)), this.onInternal);
    return handleRpc(RPC.listTokens, raw, reply, this.onInternal);
  }

  @MessagePattern(bodySubjects(RPC.account.subject))
  getAccount(@Payload() raw: unknown, @Ctx() ctx: NatsContext): Promise<unknown> {
    const view = bodyViewOf(ctx);
    const reply = (req: AccountRequest): Promise<AccountReply> =>
      this.cache.get('account', accountKey(req), () => this.account.execute(req));
    if (view) return handleRpcBody(RPC.account, raw, async (req) => jsonBody(accountBody(await reply(req), view)), this.onInternal);
    return handleRpc(RPC.account, raw, reply, this.onInternal);
  }

  @MessagePattern(bodySubjects(RPC.tokenHistory.subject))
  getHistory(@Payload() raw: unknown, @Ctx() ctx: NatsContext): Promise<unknown> {
    const reply = (req: TokenHistoryRequest): Promise<TokenHistoryReply> =>
      this.cache.get('history', historyKey(req), () => this.history.execute(req));
    // paid-only endpoint: one body whatever the view
    if (bodyViewOf(ctx))
      return handleRpcBody(RPC.tokenHistory, raw, async (req) => jsonBody(historyBody(await reply(req))), this.onInternal);
    return handleRpc(RPC.tokenHistory, raw, reply, this.onInternal);
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
