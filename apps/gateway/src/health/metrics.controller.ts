import { Controller, Get, Header } from '@nestjs/common';
import { RouteSchema } from '@nestjs/platform-fastify';
import { routeSchema } from '@tokensvc/api';
import { GATEWAY_OPERATIONS as OPS } from '../operations/gateway.endpoints';
import { httpMetrics } from '../http/metrics';

@Controller('metrics')
export class MetricsController {
  @Get()
  @RouteSchema(routeSchema('metrics', OPS.metrics))
  @Header('content-type', httpMetrics.registry.contentType)
  metrics(): Promise<string> {
    return httpMetrics.registry.metrics();
  }
}
