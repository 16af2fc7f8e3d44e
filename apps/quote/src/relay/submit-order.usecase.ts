/**
 * POST /v2/portal: checks the request and the caller's submission rate, then hands the order to
 * the relayer (which is idempotent per order and signature).
 */
import type Redis from 'ioredis';
import { ErrorCode, type StoredOrderReply, type SubmitOrderRequest } from '@tokensvc/messages';
import { ServiceError } from '@tokensvc/transport';
import type { Relayer } from './relayer';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export class SubmitOrderUseCase {
  constructor(
    private readonly relayer: Relayer,
    private readonly redis: Pick<Redis, 'eval'> | undefined,
    private readonly perCallerPerMinute: number,
  ) {}

  async execute(req: SubmitOrderRequest): Promise<StoredOrderReply> {
    const orderId = req.orderId.toLowerCase();
    if (!UUID.test(orderId))
      throw new ServiceError(ErrorCode.ERROR_CODE_BAD_REQUEST, 'orderId must be the UUID of context.orderId from GET /v2/portal');
    await this.limit(req.caller || 'anonymous');
    return this.relayer.submit(orderId, req.signature);
  }

  /** Fixed one-minute window per caller (API key id or client IP), counted in Redis. */
  private async limit(caller: string): Promise<void> {
    if (!this.redis) return;
    const minute = Math.floor(Date.now() / 60_000);
    const n = Number(
      await this.redis.eval(
        `local n = redis.call('INCR', KEYS[1]) if n == 1 then redis.call('EXPIRE', KEYS[1], 120) end return n`,
        1,
        `relay:submissions:${caller}:${minute}`,
      ),
    );
    if (n > this.perCallerPerMinute) {
      throw new ServiceError(
        ErrorCode.ERROR_CODE_RATE_LIMITED,
        `too many order submissions: ${this.perCallerPerMinute} per minute per caller; retry in ${60 - (Math.floor(Date.now() / 1000) % 60)} s`,
      );
    }
  }
}
