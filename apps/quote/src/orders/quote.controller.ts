import { Controller, Logger } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { RPC } from '@tokensvc/messages';
import { handleRpc } from '@tokensvc/transport';
import { ApprovalUseCase } from './approval.usecase';
import { BuildOrderUseCase } from './build-order.usecase';
import { CrossChainOrders } from './cross-chain-orders';
import { isCrossChainRequest } from './request-parsing';
import { EstimateUseCase } from './estimate.usecase';
import { MultiOrderUseCase } from './multi-order.usecase';
import { Relayer } from '../relay/relayer';
import { SubmitOrderUseCase } from '../relay/submit-order.usecase';

/**
 * NATS handlers of the trading endpoints; each is a thin adapter over one use case. An estimate or
 * an order whose tokens are on two networks is a cross-chain use case (CrossChainOrders), any other
 * a same-chain one.
 */
@Controller()
export class QuoteController {
  private readonly logger = new Logger(QuoteController.name);
  private readonly onInternal = (e: unknown): void => this.logger.error(e);

  constructor(
    private readonly estimates: EstimateUseCase,
    private readonly approvals: ApprovalUseCase,
    private readonly orders: BuildOrderUseCase,
    private readonly submissions: SubmitOrderUseCase,
    private readonly relayer: Relayer,
    private readonly multiOrders: MultiOrderUseCase,
    private readonly crossChain: CrossChainOrders,
  ) {}

  @MessagePattern(RPC.estimate.subject)
  estimate(@Payload() raw: unknown): Promise<unknown> {
    return handleRpc(
      RPC.estimate,
      raw,
      (req) => (isCrossChainRequest(req.inputToken, req.outputToken) ? this.crossChain.estimate(req) : this.estimates.execute(req)),
      this.onInternal,
    );
  }

  @MessagePattern(RPC.approval.subject)
  approval(@Payload() raw: unknown): Promise<unknown> {
    return handleRpc(RPC.approval, raw, (req) => this.approvals.execute(req), this.onInternal);
  }

  @MessagePattern(RPC.buildOrder.subject)
  buildOrder(@Payload() raw: unknown): Promise<unknown> {
    return handleRpc(
      RPC.buildOrder,
      raw,
      (req) => (isCrossChainRequest(req.inputToken, req.outputToken) ? this.crossChain.build(req) : this.orders.execute(req)),
      this.onInternal,
    );
  }

  @MessagePattern(RPC.buildMultiOrder.subject)
  buildMultiOrder(@Payload() raw: unknown): Promise<unknown> {
    return handleRpc(RPC.buildMultiOrder, raw, (req) => this.multiOrders.execute(req), this.onInternal);
  }

  @MessagePattern(RPC.submitOrder.subject)
  submitOrder(@Payload() raw: unknown): Promise<unknown> {
    return handleRpc(RPC.submitOrder, raw, (req) => this.submissions.execute(req), this.onInternal);
  }

  @MessagePattern(RPC.orderStatus.subject)
  orderStatus(@Payload() raw: unknown): Promise<unknown> {
    return handleRpc(RPC.orderStatus, raw, (req) => this.relayer.status(req.orderId.toLowerCase()), this.onInternal);
  }
}
