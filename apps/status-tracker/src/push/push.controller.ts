import { Controller, Logger } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { RPC } from '@tokensvc/messages';
import { handleRpc } from '@tokensvc/transport';
import { ManageWebhooksUseCase } from './manage-webhooks.usecase';
import { RegisterWebhookUseCase } from './register-webhook.usecase';
import { StatusEventsUseCase } from './status-events.usecase';

/** NATS handlers of POST, GET and DELETE /v3/portal/webhooks and of the gateway's SSE stream (record + events). */
@Controller()
export class PushController {
  private readonly logger = new Logger(PushController.name);

  constructor(
    private readonly webhooks: RegisterWebhookUseCase,
    private readonly events: StatusEventsUseCase,
    private readonly manage: ManageWebhooksUseCase,
  ) {}

  @MessagePattern(RPC.registerWebhook.subject)
  registerWebhook(@Payload() raw: unknown): Promise<unknown> {
    return handleRpc(
      RPC.registerWebhook,
      raw,
      (req) => this.webhooks.execute(req),
      (e) => this.logger.error(e),
    );
  }

  @MessagePattern(RPC.listWebhooks.subject)
  listWebhooks(@Payload() raw: unknown): Promise<unknown> {
    return handleRpc(
      RPC.listWebhooks,
      raw,
      (req) => this.manage.list(req),
      (e) => this.logger.error(e),
    );
  }

  @MessagePattern(RPC.deleteWebhook.subject)
  deleteWebhook(@Payload() raw: unknown): Promise<unknown> {
    return handleRpc(
      RPC.deleteWebhook,
      raw,
      (req) => this.manage.delete(req),
      (e) => this.logger.error(e),
    );
  }

  @MessagePattern(RPC.crossChainStatusEvents.subject)
  statusEvents(@Payload() raw: unknown): Promise<unknown> {
    return handleRpc(
      RPC.crossChainStatusEvents,
      raw,
      (req) => this.events.execute(req),
      (e) => this.logger.error(e),
    );
  }
}
