import { Controller, Get, Header } from '@nestjs/common';
import { httpMetrics } from './metrics';

@Controller('metrics')
export class MetricsController {
  @Get()
  @Header('content-type', httpMetrics.registry.contentType)
  metrics(): Promise<string> {
    return httpMetrics.registry.metrics();
  }
}
