import { Controller, Logger } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { RPC } from '@tokensvc/messages';
import { handleRpc } from '@tokensvc/transport';
import { ListNetworksUseCase } from './list-networks.usecase';
import { ListPlatformsUseCase } from './list-platforms.usecase';

@Controller()
export class CatalogController {
  private readonly logger = new Logger(CatalogController.name);
  constructor(
    private readonly networks: ListNetworksUseCase,
    private readonly platforms: ListPlatformsUseCase,
  ) {}

  @MessagePattern(RPC.listNetworks.subject)
  listNetworks(@Payload() raw: unknown): Promise<unknown> {
    return handleRpc(
      RPC.listNetworks,
      raw,
      () => this.networks.execute(),
      (e) => this.logger.error(e),
    );
  }

  @MessagePattern(RPC.listPlatforms.subject)
  listPlatforms(@Payload() raw: unknown): Promise<unknown> {
    return handleRpc(
      RPC.listPlatforms,
      raw,
      (req) => this.platforms.execute(req),
      (e) => this.logger.error(e),
    );
  }
}
