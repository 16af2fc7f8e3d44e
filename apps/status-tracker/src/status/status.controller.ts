import { Controller, Logger } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { RPC } from '@tokensvc/messages';
import { handleRpc } from '@tokensvc/transport';
import { CrossChainStatusUseCase } from './cross-chain-status.usecase';

/** NATS handler of `GET /v3/portal/status`. */
@Controller()
export class StatusController {
  private readonly logger = new Logger(StatusController.name);

  constructor(private readonly status: CrossChainStatusUseCase) {}

  @MessagePattern(RPC.crossChainStatus.subject)
  crossChainStatus(@Payload() raw: unknown): Promise<unknown> {
    return handleRpc(
      RPC.crossChainStatus,
      raw,
      (req) => this.status.execute(req),
      (e) => this.logger.error(e),
    );
  }
}
