import { Controller, Get, Query } from '@nestjs/common';
import { RPC, type Platform } from '@tokensvc/messages';
import { NatsRpcClient } from '@tokensvc/transport';
import { assertKnownParams, singleParam, type Query as Q } from '../http/query';

/** Networks and platforms: thin transport over token-data's NATS subjects. */
@Controller()
export class CatalogController {
  constructor(private readonly rpc: NatsRpcClient) {}

  @Get('v1/networks')
  async networks(@Query() query: Q): Promise<string[]> {
    assertKnownParams(query, []);
    return (await this.rpc.call(RPC.listNetworks, {})).networks;
  }

  @Get('v2/platforms')
  async platforms(@Query() query: Q): Promise<Platform[]> {
    assertKnownParams(query, ['type']);
    const type = singleParam(query, 'type');
    return (await this.rpc.call(RPC.listPlatforms, { type })).platforms;
  }
}
