/**
 * The gateway's Server-Sent Events stream asks this: the current record (same lookup and 404
 * rule as GET /v3/portal/status; record.eventSeq is its sequence) and, with `afterSeq`, the
 * recorded transitions after it (a client resuming from Last-Event-ID, or a gap in what the
 * stream received).
 */
import { ErrorCode, type CrossChainStatusEventsReply, type CrossChainStatusEventsRequest } from '@tokensvc/messages';
import { ServiceError } from '@tokensvc/transport';
import type { CrossChainStatusUseCase } from '../status/cross-chain-status.usecase';
import type { StatusEventStore } from './status-event-store';

export class StatusEventsUseCase {
  constructor(
    private readonly status: CrossChainStatusUseCase,
    private readonly store: StatusEventStore,
  ) {}

  async execute(req: CrossChainStatusEventsRequest): Promise<CrossChainStatusEventsReply> {
    const afterSeq = req.afterSeq === undefined ? undefined : Number(req.afterSeq);
    if (afterSeq !== undefined && !(Number.isSafeInteger(afterSeq) && afterSeq >= 0))
      throw new ServiceError(ErrorCode.ERROR_CODE_BAD_REQUEST, 'afterSeq must be a non-negative integer');
    const record = await this.status.execute({ orderId: req.orderId, txHash: req.txHash });
    if (afterSeq !== undefined && afterSeq > Number(record.eventSeq)) {
      throw new ServiceError(
        ErrorCode.ERROR_CODE_BAD_REQUEST,
        `Last-Event-ID ${afterSeq} is ahead of this order's last event (${record.eventSeq}); resume with an id this stream sent`,
      );
    }
    const events = afterSeq === undefined ? [] : await this.store.eventsAfter(req.orderId.toLowerCase(), record.txHash, afterSeq);
    return { record, events };
  }
}
