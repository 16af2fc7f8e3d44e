import { Controller, type Type } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { randomUUID } from 'node:crypto';
import { PING_BY_SERVICE, type ServiceName } from '@tokensvc/messages';
import { handleRpc } from './rpc-handler';

const INSTANCE_ID = randomUUID();

/** Each service answers `<service>.ping.v1`, so the gateway's readiness can see it over NATS. */
export function pingController(service: ServiceName): Type<unknown> {
  const contract = PING_BY_SERVICE[service];
  @Controller()
  class PingController {
    @MessagePattern(contract.subject)
    ping(@Payload() raw: unknown): Promise<unknown> {
      return handleRpc(contract, raw, () => ({ service, instanceId: INSTANCE_ID, time: new Date().toISOString() }));
    }
  }
  return PingController;
}
